// The landing's activities as the lander calls them: merge, tests and ref update on the host that holds the
// repository (the task's host), each heartbeating; the enqueue on the shared queue.
import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { LandingActivities } from '../../activities/land/index.js';

const retry = (maximumAttempts: number): ActivityOptions['retry'] => ({
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '30s',
  maximumAttempts,
  nonRetryableErrorTypes: ['LandingRefused', 'InvalidRepo'],
});

/** A host that does not pick a step up in this long counts as lost: the step goes to any host instead. */
const HOST_LOST_AFTER_MS = 45_000;

/** The steps on `hostQueue`; `testTimeoutMs` bounds the test run. */
export function landingActivities(hostQueue: string, testTimeoutMs: number) {
  const bound = { taskQueue: hostQueue, scheduleToStartTimeout: HOST_LOST_AFTER_MS, heartbeatTimeout: '20 seconds' };
  const { mergeChange, landChange } = proxyActivities<LandingActivities>({
    ...bound,
    startToCloseTimeout: '2 minutes',
    retry: retry(5),
  });
  const { testMergedTree } = proxyActivities<LandingActivities>({
    ...bound,
    startToCloseTimeout: testTimeoutMs + 60_000,
    retry: retry(3),
  });
  return { mergeChange, landChange, testMergedTree };
}

export const { enqueueLanding } = proxyActivities<LandingActivities>({
  startToCloseTimeout: '1 minute',
  retry: retry(10),
});
