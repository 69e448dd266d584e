import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { withSpending } from '../../../activities/coder/spending.js';
import { emptyTelemetry } from '../../../domain/telemetry.js';
import type { AttemptRecord } from '../../../domain/task-state.js';
import { coderSpendingOf, keepCoderSpending } from '../../../workflows/task/coder-spending.js';

const activityFailure = (cause: Error) =>
  new ActivityFailure('activity failed', 'runCoder', '1', RetryState.MAXIMUM_ATTEMPTS_REACHED, 'worker', cause);

describe('coderSpendingOf', () => {
  it('reads what a failed coder run spent from the failure the activity threw', () => {
    const telemetry = { ...emptyTelemetry(), modelRequests: 2, failedModelRequests: 2, inputTokens: 5924 };
    const thrown = withSpending(
      ApplicationFailure.create({ type: 'ProviderTimeout', message: 'did not answer' }),
      telemetry,
    ) as ApplicationFailure;
    expect(thrown).toMatchObject({ type: 'ProviderTimeout', nonRetryable: false });
    expect(coderSpendingOf(activityFailure(thrown))).toEqual(telemetry);
  });

  it('finds nothing in a failure without spending (an older worker) or one that is not an activity failure', () => {
    expect(coderSpendingOf(activityFailure(ApplicationFailure.create({ message: 'x' })))).toBeUndefined();
    expect(coderSpendingOf(new Error('x'))).toBeUndefined();
  });

  it('leaves a cancellation as it is', () => {
    const controller = new AbortController();
    controller.abort();
    const cancelled = new Error('cancelled');
    expect(withSpending(cancelled, emptyTelemetry(), controller.signal)).toBe(cancelled);
  });
});

describe('keepCoderSpending', () => {
  it("records a failed run's spending on the attempt, refreshes the sums and rethrows the same failure", () => {
    const telemetry = { ...emptyTelemetry(), modelRequests: 3, failedModelRequests: 1, inputTokens: 900 };
    const failure = activityFailure(withSpending(ApplicationFailure.create({ message: 'down' }), telemetry) as Error);
    const record = { attempt: 1 } as AttemptRecord;
    let refreshed = 0;
    expect(() => keepCoderSpending(record, { refreshTelemetry: () => (refreshed += 1) })(failure)).toThrow(failure);
    expect(record.coderSpent).toEqual(telemetry);
    expect(refreshed).toBe(1);
  });

  it('leaves the attempt alone for a failure that carries no spending', () => {
    const record = { attempt: 1 } as AttemptRecord;
    let refreshed = 0;
    const failure = new Error('not an activity failure');
    expect(() => keepCoderSpending(record, { refreshTelemetry: () => (refreshed += 1) })(failure)).toThrow(failure);
    expect(record.coderSpent).toBeUndefined();
    expect(refreshed).toBe(0);
  });
});
