// Every message a task workflow understands, defined once for the workflow, the CLI, tests and `temporal` alike.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { TaskState } from '../domain/task-state.js';

/** Stop before the next node; the running node finishes first. */
export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export interface CancelRequest {
  /** Shown in the outcome. */
  reason?: string;
  /**
   * The sender also sends a workflow cancel request (as `taskloop cancel` and a project do): the task, once it has
   * its CANCELLED outcome, waits a while for it, so that the workflow ends cancelled however the two are ordered.
   */
  requestFollows?: boolean;
}
/** End the task: the running node is cancelled, the worktree removed, nothing committed. */
export const cancelSignal = defineSignal<[CancelRequest?]>('cancel');

export interface RetryRequest {
  /** Guidance for the coder, shown in the next attempt's context. */
  hint?: string;
}
export interface RetryAccepted {
  attempt: number;
}
/** Start a new attempt of a task that waits for a hint or failed within its retry window; refused otherwise. */
export const retryUpdate = defineUpdate<RetryAccepted, [RetryRequest]>('retry');

export const stateQuery = defineQuery<TaskState>('state');
