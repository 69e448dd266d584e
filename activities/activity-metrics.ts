// taskloop's metrics recorded inside activities, through the running activity's metric meter (the SDK adds the
// namespace, task queue and activity type as tags). Outside an activity (unit tests, scripts) nothing is recorded.
import { asyncLocalStorage } from '@temporalio/activity';

export const ACTIVITY_COUNTERS = {
  taskloop_in_attempt_test_runs: 'test runs the coder started itself with its run_tests tool, within an attempt',
  taskloop_sandbox_denials:
    'repository runs in which the sandbox refused an action (a write outside the worktree, the network, git config)',
} as const;

/** Adds one to a taskloop counter in the current activity's metric meter. */
export function countInActivity(name: keyof typeof ACTIVITY_COUNTERS, tags: Record<string, string> = {}): void {
  asyncLocalStorage.getStore()?.metricMeter.createCounter(name, '1', ACTIVITY_COUNTERS[name]).add(1, tags);
}
