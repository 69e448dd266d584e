// Sends a person's answer to a task that waits for approval: the Update of its kind, refused by the task's validator
// (a task that does not wait, a stale round, a missing comment) with its reason, or taken with the round it answered.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { ApprovalAnswerKind, ApprovalRequest } from '../../domain/approval.js';
import { approveUpdate, rejectUpdate, requestChangesUpdate, type ApprovalAccepted } from '../../workflows/messages.js';
import { WorkFailed } from '../cli-errors.js';
import type { ResolvedTask } from '../tasks/resolve-task.js';

const updates = { approve: approveUpdate, 'request-changes': requestChangesUpdate, reject: rejectUpdate } as const;

/** Who answers: `--as NAME`, else TASKLOOP_USER, else USER of the shell; `unknown` when none is set. */
export function answerAuthor(as: string | undefined, env: NodeJS.ProcessEnv): string {
  return as?.trim() || env.TASKLOOP_USER?.trim() || env.USER?.trim() || 'unknown';
}

export async function answerTask(
  task: Pick<ResolvedTask, 'handle'>,
  kind: ApprovalAnswerKind,
  request: ApprovalRequest,
): Promise<ApprovalAccepted> {
  try {
    return await task.handle.executeUpdate(updates[kind], { args: [request] });
  } catch (error) {
    if (!(error instanceof WorkflowUpdateFailedError)) throw error;
    throw new WorkFailed(
      `taskloop ${kind}: ${task.handle.workflowId} refused it: ${error.cause?.message ?? error.message}`,
    );
  }
}
