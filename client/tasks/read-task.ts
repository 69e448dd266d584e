// Reads what a task is doing: the `state` query while its workflow runs, its outcome once closed.
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { TaskOutcome, TaskState } from '../../domain/task-state.js';
import { queryTaskState } from './query-state.js';
import type { ResolvedTask } from './resolve-task.js';

export type TaskReading =
  | { workflowId: string; workflowStatus: 'RUNNING'; taskQueue: string; state: TaskState }
  | { workflowId: string; workflowStatus: 'COMPLETED'; taskQueue: string; outcome: TaskOutcome }
  | { workflowId: string; workflowStatus: string; taskQueue: string; error: string };

export async function readTask(client: Client, { handle, description }: ResolvedTask): Promise<TaskReading> {
  const base = { workflowId: handle.workflowId, taskQueue: description.taskQueue };
  const workflowStatus = description.status.name;
  if (workflowStatus === 'RUNNING') return { ...base, workflowStatus, state: await queryTaskState(client, handle, description.taskQueue) };
  try {
    const outcome = (await handle.result()) as TaskOutcome;
    if (workflowStatus === 'COMPLETED') return { ...base, workflowStatus, outcome };
    return { ...base, workflowStatus, error: `closed as ${workflowStatus}` };
  } catch (error) {
    const cause = error instanceof WorkflowFailedError ? (error.cause?.message ?? error.message) : (error as Error).message;
    return { ...base, workflowStatus, error: cause };
  }
}
