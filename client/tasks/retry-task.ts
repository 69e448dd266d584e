// `taskloop retry`: a running task gets the `retry` update (its validator may refuse); a closed FAILED or
// CANCELLED task starts again under the same workflow id, carrying its attempts so the coder sees the evidence.
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { TaskOutcome } from '../../domain/task-state.js';
import { retryUpdate } from '../../workflows/messages.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import { awaitOutcome } from './await-outcome.js';
import { prepareTaskSpec } from './prepare-spec.js';
import type { ResolvedTask } from './resolve-task.js';
import { readRunInput } from './run-input.js';
import { startTask } from './start-task.js';

export type RetryResult =
  | { kind: 'updated'; workflowId: string; attempt: number }
  | {
      kind: 'restarted';
      workflowId: string;
      started: boolean;
      attempt: number;
      carriedAttempts: number;
      taskQueue: string;
    };

export async function retryTask(client: Client, task: ResolvedTask, hint: string | undefined): Promise<RetryResult> {
  const request = hint === undefined ? {} : { hint };
  if (task.description.status.name === 'RUNNING') {
    try {
      const accepted = await task.handle.executeUpdate(retryUpdate, { args: [request] });
      return { kind: 'updated', workflowId: task.handle.workflowId, attempt: accepted.attempt };
    } catch (error) {
      if (!(error instanceof WorkflowUpdateFailedError)) throw error;
      throw new WorkFailed(
        `taskloop retry: ${task.handle.workflowId} refused the retry: ${error.cause?.message ?? error.message}`,
      );
    }
  }
  return restartClosedTask(client, task, hint);
}

async function restartClosedTask(
  client: Client,
  { handle, description }: ResolvedTask,
  hint: string | undefined,
): Promise<RetryResult> {
  const workflowId = handle.workflowId;
  // A workflow that ended without an outcome (terminated, timed out) has no evidence to carry; start afresh.
  const ended = ['COMPLETED', 'FAILED', 'CANCELLED'].includes(description.status.name);
  const outcome: TaskOutcome | undefined = ended
    ? await awaitOutcome('retry', handle).catch(() => undefined)
    : undefined;
  if (outcome?.status === 'COMPLETED') {
    throw new WorkFailed(
      `taskloop retry: task ${workflowId} already completed (commit ${outcome.commit?.sha ?? 'none'}); there is nothing to retry`,
    );
  }
  const input = await readRunInput(client, { workflowId, runId: description.runId });
  // The same checks as `run`: the repository or the scripted file may have gone since the first start.
  // The task ran from this repository before; its checkout's state is not this command's business.
  const spec = await prepareTaskSpec(input.spec, process.cwd(), { allowDirty: true, warn: () => undefined }).catch(
    (error: unknown) => {
      throw error instanceof UsageError
        ? new UsageError(`taskloop retry: the task cannot start again: ${error.message}`)
        : error;
    },
  );
  const carried = { attempts: outcome?.attempts ?? [], turnsConsumed: outcome?.turnsConsumed ?? 0 };
  const { started } = await startTask(client, spec, { taskQueue: description.taskQueue, carried, hint });
  return {
    kind: 'restarted',
    workflowId,
    started,
    attempt: carried.attempts.length + 1,
    carriedAttempts: carried.attempts.length,
    taskQueue: description.taskQueue,
  };
}
