import type { WorkflowExecutionDescription } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { environmentLine } from '../../../../client/show/environment-line.js';
import { formatLiveEnvironment, readLiveEnvironment } from '../../../../client/tasks/live-environment.js';

const describing = (activities: object[]) =>
  ({ raw: { pendingActivities: activities } }) as WorkflowExecutionDescription;
const step = (details?: unknown) => ({
  activityType: { name: 'prepareEnvironment' },
  lastStartedTime: { seconds: 100, nanos: 500_000_000 },
  ...(details === undefined ? {} : { heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload(details)] } }),
});

describe('the environment step of a running task', () => {
  it('is read from the prepareEnvironment activity: building, its name from the heartbeat, and for how long', () => {
    const live = readLiveEnvironment(
      describing([step({ environment: 'calc-0123456789abcdef', step: 'building', elapsedMs: 3, pgid: 7 })]),
      112_500,
    );
    expect(live).toEqual({ step: 'building', name: 'calc-0123456789abcdef', elapsedMs: 12_000 });
    expect(formatLiveEnvironment(live!)).toBe('environment: building calc-0123456789abcdef (12s)');
  });

  it('says it looks the environment up before a heartbeat names it, and waits for another build', () => {
    expect(formatLiveEnvironment(readLiveEnvironment(describing([step()]), 100_500)!)).toBe(
      'environment: looking up (0s)',
    );
    const waiting = readLiveEnvironment(describing([step({ environment: 'calc-1', step: 'waiting' })]), 160_500);
    expect(formatLiveEnvironment(waiting!)).toBe('environment: waiting for another task that builds calc-1 (1m00s)');
  });

  it('is absent when no environment step runs (the coder runs, or nothing)', () => {
    expect(readLiveEnvironment(describing([{ activityType: { name: 'runCoder' } }]))).toBeUndefined();
    expect(readLiveEnvironment(describing([]))).toBeUndefined();
  });

  it('is named in show once the step ended: built or found, and the time it took', () => {
    expect(environmentLine({ name: 'calc-1', built: true, setupMs: 19_040 })).toBe(
      'environment: calc-1 (built in 19.0 s)',
    );
    expect(environmentLine({ name: 'calc-1', built: false, setupMs: 900 })).toBe(
      'environment: calc-1 (reused: found in the cache in 0.9 s)',
    );
  });
});
