import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { withSpending } from '../../../activities/coder/spending.js';
import { emptyTelemetry } from '../../../domain/telemetry.js';
import { coderSpendingOf } from '../../../workflows/task/coder-spending.js';

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
