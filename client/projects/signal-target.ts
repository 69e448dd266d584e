// Sends pause, resume or cancel to a running task or project; a closed one is a clear "nothing to do" (exit 1).
import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { WorkFailed } from '../cli-errors.js';
import { signalTask } from '../tasks/signal-task.js';
import { resolveTarget } from './resolve-target.js';

export async function signalTarget(
  client: Client,
  command: string,
  ref: string,
  send: (handle: WorkflowHandle) => Promise<void>,
): Promise<{ kind: 'task' | 'project'; workflowId: string }> {
  const target = await resolveTarget(client, command, ref);
  if (target.kind === 'task') return { kind: 'task', workflowId: await signalTask(client, command, target.task.handle.workflowId, send) };
  const { handle, description } = target.project;
  const closed = () => new WorkFailed(`taskloop ${command}: project ${handle.workflowId} has already closed (${description.status.name}); there is nothing to ${command}`);
  if (description.status.name !== 'RUNNING') throw closed();
  try {
    await send(handle);
  } catch (error) {
    // It closed between the describe and the signal.
    if (error instanceof WorkflowNotFoundError) throw closed();
    throw error;
  }
  return { kind: 'project', workflowId: handle.workflowId };
}
