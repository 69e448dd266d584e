// A task's outcome however its workflow ended, for the integration and workflow tiers alike.
import { CancelledFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { outcomeOfState, type TaskOutcome } from '../../domain/task-state.js';
import { stateQuery } from '../../workflows/messages.js';
import { outcomeOfFailure } from '../../workflows/task/task-failed.js';

/** Returned (COMPLETED), in TaskFailed's details (FAILED), or in its state (cancelled). */
export async function taskOutcome(handle: WorkflowHandle): Promise<TaskOutcome> {
  try {
    return (await handle.result()) as TaskOutcome;
  } catch (error) {
    const outcome = outcomeOfFailure(error);
    if (outcome) return outcome;
    if (error instanceof WorkflowFailedError && error.cause instanceof CancelledFailure)
      return outcomeOfState(await handle.query(stateQuery));
    throw error;
  }
}
