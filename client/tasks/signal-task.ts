// Sends pause, resume or cancel to a running task; a closed task is a clear "nothing to do" (exit 1).
import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { TaskStatusKey } from '../../workflows/search-attributes.js';
import { WorkFailed } from '../cli-errors.js';
import { resolveTask } from './resolve-task.js';

export async function signalTask(
  client: Client,
  command: string,
  ref: string,
  send: (handle: WorkflowHandle) => Promise<void>,
): Promise<string> {
  const { handle, description } = await resolveTask(client, command, ref);
  const closed = () => {
    const taskStatus = description.typedSearchAttributes.get(TaskStatusKey);
    const status =
      taskStatus && description.status.name === 'COMPLETED' ? `task ${taskStatus}` : description.status.name;
    return new WorkFailed(
      `taskloop ${command}: task ${handle.workflowId} has already closed (${status}); there is nothing to ${command}`,
    );
  };
  await sendWhileRunning(handle, description.status.name === 'RUNNING', closed, send);
  return handle.workflowId;
}

/** Sends to a running workflow; one that has closed (before, or between the describe and the signal) is `closed()`. */
export async function sendWhileRunning(
  handle: WorkflowHandle,
  running: boolean,
  closed: () => Error,
  send: (handle: WorkflowHandle) => Promise<void>,
): Promise<void> {
  if (!running) throw closed();
  try {
    await send(handle);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw closed();
    throw error;
  }
}
