// Every message of a branch's landing queue, defined once for the lander, the task workflow, the activities and tests.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { LandingOutcome, LandingRequest } from '../../domain/landing.js';

/** A lander's input (its start, and what continue-as-new carries). */
export interface LanderInput {
  repo: string;
  target: string;
  /** Continue as new after this many changes handled in one run (default 50), or when Temporal suggests it. */
  continueAsNewAfter?: number;
  /** The previous run's queue and counts (continue-as-new). */
  carried?: { queue: LandingRequest[]; counts: LanderCounts };
}

export interface LanderCounts {
  landed: number;
  sentBack: number;
  refused: number;
  /** Changes withdrawn by their cancelled task (absent in counts carried by runs before withdrawals). */
  withdrawn?: number;
  continuedAsNew: number;
}

/** The lander's signature, for a typed signal-with-start without importing the workflow (no import circle). */
export type LanderWorkflow = (input: LanderInput) => Promise<void>;

/** enqueue: one change to land; sent with signal-with-start, so the first change starts the branch's lander. */
export const enqueueSignal = defineSignal<[LandingRequest]>('enqueue');

/**
 * withdraw: the task of a queued change was cancelled. The lander takes the change off its queue (answering
 * `withdrawn`), or, for the change in hand, lands nothing of it after the step that runs (answering `withdrawn`); a
 * change whose ref update had begun is answered as it ended (landed). One the lander no longer holds is ignored: its
 * answer was sent already.
 */
export const withdrawSignal = defineSignal<[{ taskWorkflowId: string; sha: string; reason: string }]>('withdraw');

/** landingResult: the lander's answer to the task workflow whose change it landed or sent back. */
export const landingResultSignal = defineSignal<[{ sha: string; outcome: LandingOutcome }]>('landingResult');

/** What a lander shows: the change it works on, the changes waiting, and what it has done since it started. */
export interface LanderView {
  repo: string;
  target: string;
  current?: { taskId: string; sha: string; step: 'merge' | 'test' | 'land'; since: string };
  waiting: { taskId: string; sha: string; queuedAt: string }[];
  landed: number;
  sentBack: number;
  refused: number;
  withdrawn?: number;
  continuedAsNew: number;
}
export const landerStateQuery = defineQuery<LanderView>('state');
