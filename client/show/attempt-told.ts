// What `taskloop show` adds to an attempt besides its turns: every message the model got that was not a tool's reply
// (the system prompt, the task as sent with the files shown and a retry's evidence, a later note), whole; what a
// running attempt does now (its tests run, its diff is being tested); and the task's `next:` step, as status says it.
import { nextStepFor } from '../../domain/next-step.js';
import type { AttemptTrajectory, TaskTrajectory } from '../../domain/trajectory/trajectory.js';
import type { ToldMessage } from '../../domain/trajectory/transcript-turns.js';

export const toldHeading = (message: ToldMessage) =>
  `message before turn ${message.beforeTurn} (${message.role}, ${message.content.length} characters)`;

/** The messages as text: a heading each, its lines under `  | `. */
export function toldMessagesText(attempt: AttemptTrajectory): string[] {
  if ('missing' in attempt.transcript) return [];
  return attempt.transcript.messages.flatMap((message) => [
    `${toldHeading(message)}:`,
    ...message.content.split('\n').map((line) => `  | ${line}`),
  ]);
}

/** `tests: ...` for an attempt the test node did not record: running now, not reached yet, or not run. */
export function testsNotRecorded(attempt: AttemptTrajectory): string {
  if (attempt.now === 'test') return 'running';
  if (attempt.now) return `not yet (the attempt is at ${attempt.now})`;
  return 'not run';
}

/** The step to take after a FAILED task (the same `next:` line status prints), or undefined. */
export const nextLine = (trajectory: TaskTrajectory): string | undefined => {
  const next = nextStepFor(trajectory);
  return next && `next: ${next}`;
};
