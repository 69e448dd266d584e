// Sends pause, resume or cancel to a running task or project; a closed one is a clear "nothing to do" (exit 1).
import type { Client, WorkflowHandle } from '@temporalio/client';
import { WorkFailed } from '../cli-errors.js';
import { sendWhileRunning, signalTask } from '../tasks/signal-task.js';
import { resolveTarget } from './resolve-target.js';

export async function signalTarget(
  client: Client,
  command: string,
  ref: string,
  send: (handle: WorkflowHandle) => Promise<void>,
  /** What a task gets instead of `send`, when it differs (cancel also requests the workflow's cancellation). */
  sendToTask = send,
): Promise<{ kind: 'task' | 'project'; workflowId: string }> {
  const target = await resolveTarget(client, command, ref);
  if (target.kind === 'task')
    return { kind: 'task', workflowId: await signalTask(client, command, target.task.handle.workflowId, sendToTask) };
  const { handle, description } = target.project;
  const closed = () =>
    new WorkFailed(
      `taskloop ${command}: project ${handle.workflowId} has already closed (${description.status.name}); there is nothing to ${command}`,
    );
  await sendWhileRunning(handle, description.status.name === 'RUNNING', closed, send);
  return { kind: 'project', workflowId: handle.workflowId };
}
