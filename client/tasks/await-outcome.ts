// Waits for a task's result; a workflow that failed as a workflow (not as a task) becomes a WorkFailed line.
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { TaskOutcome } from '../../domain/task-state.js';
import { WorkFailed } from '../cli-errors.js';
import { whileCheckingWorker } from './queue-pollers.js';

/** Waits for the outcome; `say` hears within seconds when no worker serves the task's queue (and waiting goes on). */
export async function awaitOutcome(command: string, handle: WorkflowHandle, say: (line: string) => void = console.error): Promise<TaskOutcome> {
  try {
    return (await whileCheckingWorker(handle, say, () => handle.result())) as TaskOutcome;
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    const cause = error.cause?.message ?? error.message;
    throw new WorkFailed(`taskloop ${command}: workflow ${handle.workflowId} ended without a task outcome: ${cause}`);
  }
}
