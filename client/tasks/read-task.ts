// Reads what a task is doing: the `state` query while its workflow runs, its outcome once closed (completed,
// failed with TaskFailed, or cancelled).
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { TaskOutcome, TaskState } from '../../domain/task-state.js';
import { WorkFailed } from '../cli-errors.js';
import { awaitOutcome } from './await-outcome.js';
import { readLiveCoder, type LiveCoder } from './live-coder.js';
import { readLiveEnvironment, type LiveEnvironment } from './live-environment.js';
import { queryTaskState } from './query-state.js';
import type { ResolvedTask } from './resolve-task.js';

export type TaskReading =
  | {
      workflowId: string;
      executionStatus: 'RUNNING';
      taskQueue: string;
      state: TaskState;
      live?: LiveCoder;
      /** The environment step while it runs (its heartbeats name the environment). */
      environment?: LiveEnvironment;
    }
  | {
      workflowId: string;
      executionStatus: 'COMPLETED' | 'FAILED' | 'CANCELLED';
      taskQueue: string;
      outcome: TaskOutcome;
    }
  | { workflowId: string; executionStatus: string; taskQueue: string; error: string };

const withOutcome: readonly string[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

export async function readTask(client: Client, { handle, description }: ResolvedTask): Promise<TaskReading> {
  const base = { workflowId: handle.workflowId, taskQueue: description.taskQueue };
  const executionStatus = description.status.name;
  if (executionStatus === 'RUNNING') {
    const state = await queryTaskState(client, handle, description.taskQueue);
    const live = readLiveCoder(description);
    const environment = readLiveEnvironment(description);
    return { ...base, executionStatus, state, ...(live ? { live } : {}), ...(environment ? { environment } : {}) };
  }
  try {
    const outcome = await awaitOutcome('status', handle, console.error, description);
    if (withOutcome.includes(executionStatus))
      return { ...base, executionStatus: executionStatus as 'COMPLETED' | 'FAILED' | 'CANCELLED', outcome };
    return { ...base, executionStatus, error: `closed as ${executionStatus}` };
  } catch (error) {
    if (error instanceof WorkFailed)
      return { ...base, executionStatus, error: error.message.replace(/^taskloop status: /, '') };
    const cause =
      error instanceof WorkflowFailedError ? (error.cause?.message ?? error.message) : (error as Error).message;
    return { ...base, executionStatus, error: cause };
  }
}
