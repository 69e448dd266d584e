// What a failed reviewer or judge activity spent, from the details its ApplicationFailure carries
// (activities/models/verdict-call.ts): kept on the attempt so its requests and tokens count in the budgets.
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { VerdictUsage } from '../../domain/records.js';
import type { AttemptRecord } from '../../domain/task-state.js';

/** The usage a failed verdict activity carried, or undefined for any other failure (or one from an older worker). */
export function verdictSpendingOf(error: unknown): VerdictUsage | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure)) return undefined;
  const first = cause.details?.[0] as { verdictUsage?: VerdictUsage } | undefined;
  const usage = first?.verdictUsage;
  return typeof usage?.modelRequests === 'number' ? usage : undefined;
}

/** A rejection handler for a verdict activity: records what it spent on the attempt, refreshes the sums, rethrows. */
export function keepVerdictSpending(
  record: AttemptRecord,
  role: 'reviewer' | 'judge',
  run: { refreshTelemetry(): void },
): (error: unknown) => never {
  return (error: unknown) => {
    const spent = verdictSpendingOf(error);
    if (spent) {
      // One entry per failed run of the node: each run's activity counts from zero (its own tries summed).
      record.verdictsSpent = [...(record.verdictsSpent ?? []), { role, ...spent }];
      run.refreshTelemetry();
    }
    throw error;
  };
}
