// How a task's end shows in Temporal: a FAILED task fails its workflow with a `TaskFailed` failure that carries
// the whole outcome; readers (CLI, project workflow, tests) take the outcome back out of it here.
import { ApplicationFailure } from '@temporalio/common';
import type { TaskOutcome } from '../../domain/task-state.js';
import { shorten } from './run-details.js';

export const TASK_FAILED = 'TaskFailed';

/** The non-retryable failure a FAILED task's workflow ends with; its details are `[outcome]`. */
export function taskFailedFailure(outcome: TaskOutcome): ApplicationFailure {
  const reason = outcome.reason ?? `task ${outcome.taskId} failed`;
  const failure = ApplicationFailure.create({
    type: TASK_FAILED,
    nonRetryable: true,
    // The Web UI shows the message first: short, one line; the whole reason follows where the stack would be.
    message: shorten(reason, FAILURE_MESSAGE_CHARS),
    details: [outcome],
  });
  // A stack of bundled workflow code says nothing about why a task failed; its attempts do.
  failure.stack = [reason, '', ...outcome.attempts.map(describeAttempt)].join('\n');
  return failure;
}

const FAILURE_MESSAGE_CHARS = 160;

function describeAttempt(attempt: TaskOutcome['attempts'][number]): string {
  const failure = attempt.failure;
  const why = failure ? ` at ${failure.node} (${failure.failureClass}): ${shorten(failure.reason)}` : '';
  return `attempt ${attempt.attempt}: ${attempt.status}${why}`;
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
