// Counters a dashboard alerts on are served at 0 from the worker's start: a Prometheus counter otherwise appears only
// with its first increment, so `rate()` and "absent" alerts cannot tell "none yet" from "not exported".
import { Runtime } from '@temporalio/worker';
import { ACTIVITY_COUNTERS } from '../activities/activity-metrics.js';

/** The activities that run repository code in the sandbox (and count its denials), on the host's own queue. */
const SANDBOXED_ACTIVITIES = ['runCoder', 'runTests', 'reviewChanges'] as const;

/** Adds 0 to the sandbox-denial counter under the labels the activities' own increments carry. */
export function registerZeroCounters(namespace: string, hostQueue: string): void {
  const name = 'taskloop_sandbox_denials';
  const counter = Runtime.instance().metricMeter.createCounter(name, '1', ACTIVITY_COUNTERS[name]);
  for (const activityType of SANDBOXED_ACTIVITIES) counter.add(0, { namespace, taskQueue: hostQueue, activityType });
}
