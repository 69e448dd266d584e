// Every message a task workflow understands, defined once for the workflow, the CLI, tests and `temporal` alike.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ApprovalAnswerKind, ApprovalRequest } from '../domain/approval.js';
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

/** What an answer to a waiting task returns: the round it answered and the answer's kind. */
export interface ApprovalAccepted {
  round: number;
  kind: ApprovalAnswerKind;
}
/**
 * A person's answers to a task that waits for approval (domain/approval.ts), each refused by its validator unless the
 * task waits and the answer names the waiting round (or none): approve it, ask for changes (a new round whose coder is
 * told the comment, on top of the change), or reject it (FAILED, `rejected_by_reviewer`, the branch kept).
 */
export const approveUpdate = defineUpdate<ApprovalAccepted, [ApprovalRequest]>('approve');
export const requestChangesUpdate = defineUpdate<ApprovalAccepted, [ApprovalRequest]>('request-changes');
export const rejectUpdate = defineUpdate<ApprovalAccepted, [ApprovalRequest]>('reject');
