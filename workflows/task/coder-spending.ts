// What a failed coder activity spent, from the details its ApplicationFailure carries (activities/coder/spending.ts).
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { CoderTelemetry } from '../../domain/records.js';
import type { AttemptRecord } from '../../domain/task-state.js';

/** The telemetry a failed coder run carried, or undefined for any other failure (or one from an older worker). */
export function coderSpendingOf(error: unknown): CoderTelemetry | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure)) return undefined;
  const first = cause.details?.[0] as { coderTelemetry?: CoderTelemetry } | undefined;
  const telemetry = first?.coderTelemetry;
  return typeof telemetry?.modelRequests === 'number' ? telemetry : undefined;
}

/** A rejection handler for the coder activity: records what the failed run spent on the attempt, rethrows. */
export function keepCoderSpending(record: AttemptRecord, run: { refreshTelemetry(): void }): (error: unknown) => never {
  return (error: unknown) => {
    // A coder run that failed still spent model requests and tokens: counted in telemetry and budgets.
    const spent = coderSpendingOf(error);
    if (spent) {
      record.coderSpent = spent;
      run.refreshTelemetry();
    }
    throw error;
  };
}
