// Waits for a task's outcome, wherever its workflow's end put it: the result of a COMPLETED task, the `TaskFailed`
// failure's details of a FAILED one, the state query of a cancelled one. Anything else becomes a WorkFailed line.
import {
  CancelledFailure,
  WorkflowFailedError,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import { outcomeOfState, type TaskOutcome } from '../../domain/task-state.js';
import { stateQuery } from '../../workflows/messages.js';
import { outcomeOfFailure } from '../../workflows/task/task-failed.js';
import { WorkFailed } from '../cli-errors.js';
import { whileCheckingWorker } from './queue-pollers.js';
import { noReconnect, type Reconnect } from './reconnect.js';

const CANCELLED_QUERY_MS = 15_000;

/** Waits for the outcome; `say` hears within seconds when no worker serves the task's queue (and waiting goes on). */
export async function awaitOutcome(
  command: string,
  handle: WorkflowHandle,
  say: (line: string) => void = console.error,
  known?: WorkflowExecutionDescription,
  reconnect: Reconnect = noReconnect,
): Promise<TaskOutcome> {
  try {
    return (await whileCheckingWorker(
      handle,
      say,
      () => reconnect(() => handle.result()),
      known,
      reconnect,
    )) as TaskOutcome;
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    const outcome =
      outcomeOfFailure(error) ??
      (error.cause instanceof CancelledFailure ? await reconnect(() => cancelledOutcome(command, handle)) : undefined);
    if (outcome) return outcome;
    const cause = error.cause?.message ?? error.message;
    throw new WorkFailed(`taskloop ${command}: workflow ${handle.workflowId} ended without a task outcome: ${cause}`);
  }
}

/** A cancelled workflow has no result: its last state (asked of a worker) holds the outcome. */
async function cancelledOutcome(command: string, handle: WorkflowHandle): Promise<TaskOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new WorkFailed(
            `taskloop ${command}: ${handle.workflowId} was cancelled; no worker answered its state query within ${CANCELLED_QUERY_MS / 1000}s (start \`taskloop worker\`)`,
          ),
        ),
      CANCELLED_QUERY_MS,
    );
  });
  try {
    return outcomeOfState(await Promise.race([handle.query(stateQuery), timeout]));
  } finally {
    clearTimeout(timer);
  }
}
