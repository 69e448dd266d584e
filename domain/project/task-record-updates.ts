// How one task's record changes as its child runs start and end, or as the project skips or cancels it.
import { coderResultsOf, type TaskOutcome } from '../task-state.js';
import { addTelemetry } from '../telemetry.js';
import type { ProjectTaskRecord } from './project-state.js';

/** A run starts now: RUNNING, one more run, and what the previous run left cleared. Returns the run's hint. */
export function markStarted(record: ProjectTaskRecord, now: string): string | undefined {
  const hint = record.hint;
  record.status = 'RUNNING';
  record.runs += 1;
  record.startedAt = now;
  for (const key of ['endedAt', 'attempt', 'phase', 'failureClass', 'reason', 'hint', 'passedAtAttempt'] as const)
    delete record[key];
  return hint;
}

/** A child run returned its outcome: the task takes its status, attempts, class and telemetry. */
export function recordOutcome(record: ProjectTaskRecord, outcome: TaskOutcome, now: string): void {
  const attemptsBefore = record.attempts;
  endRun(record, outcome.status, now);
  record.attempt = outcome.attempts.length;
  record.attempts = attemptsBefore + outcome.attempts.length;
  record.phase = 'done';
  record.turnsConsumed = Math.max(record.turnsConsumed, outcome.turnsConsumed);
  // Every coder run counts, the candidates an attempt set aside too (domain/samples.ts).
  for (const coder of outcome.attempts.flatMap(coderResultsOf))
    record.telemetry = addTelemetry(record.telemetry, coder.telemetry);
  recordLearning(record, outcome);
  if (outcome.status === 'COMPLETED') {
    record.passedAtAttempt = record.attempts;
    return;
  }
  const failureClass =
    outcome.status === 'FAILED'
      ? (outcome.recommendation ?? outcome.attempts.at(-1)?.failure?.failureClass)
      : undefined;
  if (failureClass !== undefined) record.failureClass = failureClass;
  if (outcome.reason !== undefined) record.reason = outcome.reason;
}

/** A run ended without an outcome (it could not start, or its workflow failed, timed out or was terminated). */
export function recordRunError(
  record: ProjectTaskRecord,
  status: 'FAILED' | 'CANCELLED',
  reason: string,
  now: string,
): void {
  endRun(record, status, now);
  record.reason = reason;
}

/** A task that will never run: its start and end are both now, so reports show when it was decided. */
export function markNotRun(
  record: ProjectTaskRecord,
  status: 'SKIPPED' | 'CANCELLED',
  reason: string,
  now: string,
): void {
  record.status = status;
  record.reason = reason;
  record.endedAt = now;
  delete record.startedAt;
}

// Kept compact (strings and numbers only) because the record rides through continue-as-new.
function recordLearning(record: ProjectTaskRecord, outcome: TaskOutcome): void {
  const patterns = outcome.attempts
    .filter((a) => a.status !== 'PASSED')
    .flatMap((a) => (a.test?.patterns?.[0] ? [a.test.patterns[0].type] : []));
  if (patterns.length > 0) record.patterns = [...(record.patterns ?? []), ...patterns];
  const skills = new Set([
    ...(record.usedSkills ?? []),
    ...outcome.attempts.flatMap((a) => a.coder?.skillsOffered ?? []),
  ]);
  if (skills.size > 0) record.usedSkills = [...skills].sort();
  const passing =
    outcome.status === 'COMPLETED' ? outcome.attempts.filter((a) => a.status === 'PASSED').at(-1) : undefined;
  if (passing?.review?.diff) record.acceptedDiffBytes = passing.review.diff.bytes;
}

function endRun(record: ProjectTaskRecord, status: ProjectTaskRecord['status'], now: string): void {
  record.status = status;
  record.endedAt = now;
  if (record.startedAt !== undefined) record.durationMs += Math.max(0, Date.parse(now) - Date.parse(record.startedAt));
}
