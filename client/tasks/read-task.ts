// Reads what a task is doing: the `state` query while its workflow runs, its outcome once closed (completed,
// failed with TaskFailed, or cancelled).
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { TaskOutcome, TaskState } from '../../domain/task-state.js';
import { WorkFailed } from '../cli-errors.js';
import { awaitOutcome } from './await-outcome.js';
import { readLiveCoder, type LiveCoder } from './live-coder.js';
import { queryTaskState } from './query-state.js';
import type { ResolvedTask } from './resolve-task.js';

export type TaskReading =
  | { workflowId: string; workflowStatus: 'RUNNING'; taskQueue: string; state: TaskState; live?: LiveCoder }
  | {
      workflowId: string;
      workflowStatus: 'COMPLETED' | 'FAILED' | 'CANCELLED';
      taskQueue: string;
      outcome: TaskOutcome;
    }
  | { workflowId: string; workflowStatus: string; taskQueue: string; error: string };

const withOutcome: readonly string[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

export async function readTask(client: Client, { handle, description }: ResolvedTask): Promise<TaskReading> {
  const base = { workflowId: handle.workflowId, taskQueue: description.taskQueue };
  const workflowStatus = description.status.name;
  if (workflowStatus === 'RUNNING') {
    const state = await queryTaskState(client, handle, description.taskQueue);
    const live = readLiveCoder(description);
    return { ...base, workflowStatus, state, ...(live ? { live } : {}) };
  }
  try {
    const outcome = await awaitOutcome('status', handle, console.error, description);
    if (withOutcome.includes(workflowStatus))
      return { ...base, workflowStatus: workflowStatus as 'COMPLETED' | 'FAILED' | 'CANCELLED', outcome };
    return { ...base, workflowStatus, error: `closed as ${workflowStatus}` };
  } catch (error) {
    if (error instanceof WorkFailed)
      return { ...base, workflowStatus, error: error.message.replace(/^taskloop status: /, '') };
    const cause =
      error instanceof WorkflowFailedError ? (error.cause?.message ?? error.message) : (error as Error).message;
    return { ...base, workflowStatus, error: cause };
  }
}
