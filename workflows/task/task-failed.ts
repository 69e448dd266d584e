// How a task's end shows in Temporal: a FAILED task fails its workflow with a `TaskFailed` failure that carries
// the whole outcome; readers (CLI, project workflow, tests) take the outcome back out of it here.
import { ApplicationFailure } from '@temporalio/common';
import type { TaskOutcome } from '../../domain/task-state.js';

export const TASK_FAILED = 'TaskFailed';

/** The non-retryable failure a FAILED task's workflow ends with; its details are `[outcome]`. */
export function taskFailedFailure(outcome: TaskOutcome): ApplicationFailure {
  return ApplicationFailure.create({
    type: TASK_FAILED,
    nonRetryable: true,
    message: outcome.reason ?? `task ${outcome.taskId} failed`,
    details: [outcome],
  });
}

/** The outcome a `TaskFailed` failure carries, found anywhere in an error's cause chain; undefined for any other error. */
export function outcomeOfFailure(error: unknown): TaskOutcome | undefined {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 5;
    current = current.cause, depth++
  ) {
    if (current instanceof ApplicationFailure && current.type === TASK_FAILED)
      return current.details?.[0] as TaskOutcome | undefined;
  }
  return undefined;
}
