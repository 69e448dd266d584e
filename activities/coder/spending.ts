// A coder run that fails on infrastructure still spent model requests and tokens: the failure carries them (the
// workflow adds them to the attempt's telemetry and budgets) instead of losing them with the run.
import { ApplicationFailure } from '@temporalio/common';
import type { CoderTelemetry } from '../../domain/records.js';

/** The details a failed coder run's ApplicationFailure carries. */
export interface CoderSpending {
  coderTelemetry: CoderTelemetry;
}

/** `error` as an ApplicationFailure of the same type and retry policy whose details hold `telemetry`; a cancellation as it is. */
export function withSpending(error: unknown, telemetry: CoderTelemetry, signal?: AbortSignal): unknown {
  const details: CoderSpending[] = [{ coderTelemetry: { ...telemetry } }];
  return withFailureDetails(error, details, signal);
}

/** `error` as an ApplicationFailure of the same type and retry policy carrying `details`; a cancellation as it is. */
export function withFailureDetails(error: unknown, details: unknown[], signal?: AbortSignal): unknown {
  if (signal?.aborted || !(error instanceof Error)) return error;
  if (error instanceof ApplicationFailure) {
    return ApplicationFailure.create({
      type: error.type ?? undefined,
      message: error.message,
      nonRetryable: error.nonRetryable === true,
      ...(error.nextRetryDelay === undefined ? {} : { nextRetryDelay: error.nextRetryDelay }),
      details,
    });
  }
  // A plain error keeps its name as the type, as Temporal would have given it.
  return ApplicationFailure.create({ type: error.name, message: error.message, details });
}
