// What a failed coder activity spent, from the details its ApplicationFailure carries (activities/coder/spending.ts).
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { CoderTelemetry } from '../../domain/records.js';

/** The telemetry a failed coder run carried, or undefined for any other failure (or one from an older worker). */
export function coderSpendingOf(error: unknown): CoderTelemetry | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure)) return undefined;
  const first = cause.details?.[0] as { coderTelemetry?: CoderTelemetry } | undefined;
  const telemetry = first?.coderTelemetry;
  return typeof telemetry?.modelRequests === 'number' ? telemetry : undefined;
}
