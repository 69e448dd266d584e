// Every message of a branch's landing queue, defined once for the lander, the task workflow, the activities and tests.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { LandingOutcome, LandingRequest } from '../../domain/landing.js';

/** enqueue: one change to land; sent with signal-with-start, so the first change starts the branch's lander. */
export const enqueueSignal = defineSignal<[LandingRequest]>('enqueue');

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
  continuedAsNew: number;
}
export const landerStateQuery = defineQuery<LanderView>('state');
