// Activity options for every node: explicit timeouts and retry policies; worktree-bound work goes to the host's
// queue. Every call carries a readable summary for the Web UI ("pytest, attempt 2").
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  TemporalFailure,
  proxyActivities,
  proxyLocalActivities,
  proxySinks,
  type ActivityOptions,
  type LocalActivityOptions,
  type Sinks,
} from '@temporalio/workflow';
import { RetryState } from '@temporalio/common';
import type { Claim, TaskloopActivities } from '../../activities/index.js';
import type { TaskEvent } from '../../domain/events.js';
import type { EnvironmentSpec } from '../../domain/environment.js';
import { setupTimeoutOf } from '../../domain/environment-timeout.js';

// A result over the payload limit (the SDK's PayloadsTooLarge, retryable by its default) is the same result again on
// every retry: it reaches the node at once (domain/cause-table.ts, PayloadTooLarge).
const retry = (maximumAttempts: number): ActivityOptions['retry'] => ({
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '30s',
  maximumAttempts,
  nonRetryableErrorTypes: ['PayloadsTooLarge'],
});

type Activities = TaskloopActivities;
type Name = keyof Activities;

interface ExecutableActivity {
  executeWithOptions(options: ActivityOptions | LocalActivityOptions, args: unknown[]): Promise<unknown>;
}

/** One activity with fixed options, called with a per-call summary; `beforeSchedule` runs just before each call. */
function bind<K extends Name>(name: K, options: ActivityOptions, beforeSchedule?: () => void) {
  const proxy = proxyActivities<Activities>(options)[name] as unknown as ExecutableActivity;
  return (summary: string, ...args: Parameters<Activities[K]>) => {
    beforeSchedule?.();
    return proxy.executeWithOptions({ ...options, summary }, args) as Promise<Awaited<ReturnType<Activities[K]>>>;
  };
}

// Every activity that may run longer than a few seconds heartbeats (activities/heartbeat-while.ts), so a crashed
// worker is noticed within the heartbeat timeout (spec.heartbeatTimeoutMs, 20 s by default) wherever the attempt is,
// not when start-to-close runs out.
/** Default heartbeat timeout of the worktree-bound steps (spec.heartbeatTimeoutMs). */
export const HEARTBEAT_TIMEOUT_MS = 20_000;
const localClaimOptions: LocalActivityOptions = { startToCloseTimeout: '2 minutes', retry: retry(5) };
const bookkeepingOptions: LocalActivityOptions = { startToCloseTimeout: '30 seconds', retry: retry(5) };

const localClaim = proxyLocalActivities<Pick<Activities, 'claimWorktree'>>(localClaimOptions)
  .claimWorktree as unknown as ExecutableActivity;

/**
 * Claims a worktree: the worker that claims becomes the attempt's host. Any worker may, so the claim runs as a local
 * activity of the worker running the workflow task: one marker event instead of an activity's three and the next
 * workflow task's three, and no hand-off through the task queue (about 60 ms of a calc attempt on the bench machine,
 * interleaved runs). A crashed worker is noticed by the workflow task's timeout (10 s) and the claim runs again on
 * another; it is idempotent per workflow run and attempt.
 */
export async function claimWorktree(
  summary: string,
  input: Parameters<Activities['claimWorktree']>[0],
): Promise<Claim> {
  try {
    return (await localClaim.executeWithOptions({ ...localClaimOptions, summary }, [input])) as Claim;
  } catch (error) {
    throw asActivityFailure(error, 'claimWorktree');
  }
}

/**
 * A local activity's failure reaches the workflow as the bare failure its function threw (an ApplicationFailure, a
 * TimeoutFailure), where a task-queue activity's is an ActivityFailure around it: wrapped the same way, so the node's
 * cause is read alike (workflows/task/run-node.ts).
 */
function asActivityFailure(error: unknown, activityType: string): unknown {
  if (error instanceof ActivityFailure || isCancellation(error) || !(error instanceof TemporalFailure)) return error;
  const retryState =
    error instanceof ApplicationFailure && error.nonRetryable
      ? RetryState.NON_RETRYABLE_FAILURE
      : RetryState.MAXIMUM_ATTEMPTS_REACHED;
  return new ActivityFailure(error.message, activityType, undefined, retryState, undefined, error);
}

/** The longest a coder may work in one activity. */
const CODER_TIME_MS = 30 * 60_000;

/** Default wait for a host to pick up a worktree-bound step before it counts as lost (spec.hostLostAfterMs). */
export const HOST_LOST_AFTER_MS = 45_000;
/** Longest wait for a host to remove a worktree after the attempt ended (a restarting worker bundles first). */
const REMOVAL_WAIT_MS = 120_000;

/**
 * Bookkeeping (the project's failure history, reports to the learning workflow) runs as local activities on the
 * workflow's own worker: one marker event each and no workflow task of their own.
 */
export const bookkeeping =
  proxyLocalActivities<Pick<Activities, 'recordTaskHistory' | 'reportFailure'>>(bookkeepingOptions);

/** A bookkeeping call with a summary for the Web UI (its marker's metadata; the history's commands are the same). */
export function bookkeepingWithSummary<K extends 'recordTaskHistory' | 'reportFailure'>(
  name: K,
  summary: string,
  input: Parameters<Activities[K]>[0],
): Promise<Awaited<ReturnType<Activities[K]>>> {
  const proxy = bookkeeping[name] as unknown as ExecutableActivity;
  return proxy.executeWithOptions({ ...bookkeepingOptions, summary }, [input]) as Promise<
    Awaited<ReturnType<Activities[K]>>
  >;
}

/** The task's events on their way to the event sink (workers/event-sinks.ts). */
export interface TaskEventSinks extends Sinks {
  taskEvents: { record(events: TaskEvent[]): void };
}

/**
 * The worker appends the events to the sink after the activation that emitted them and before its workflow task
 * completes, so no event, marker or workflow task of its own is needed. A workflow task that fails or times out after
 * it ran runs again and emits the same events, which the sink keeps once (activities/events-sink.ts).
 */
export const eventSinks = proxySinks<TaskEventSinks>();

/** The timeouts a task's spec sets for its worktree-bound steps. */
export interface HostStepTimeouts {
  testTimeoutMs: number;
  hostLostAfterMs?: number;
  /** Absent in the specs of runs started before the field existed: the default then, as those ran. */
  heartbeatTimeoutMs?: number;
  /** The task's environment: its set-up timeout bounds the environment step. */
  environment?: EnvironmentSpec;
}

type HostStep =
  | 'prepareEnvironment'
  | 'runCoder'
  | 'runTests'
  | 'reviewChanges'
  | 'judgeChange'
  | 'askJudgeModel'
  | 'commitWorktree'
  | 'removeWorktree';

/**
 * Each worktree-bound step's options: on the host's queue, heartbeating, with a start-to-close that fits its work.
 * The steps that run repository code or a model wait for their cancellation to complete (the process tree is killed
 * before the workflow goes on).
 */
function hostStepOptions(hostQueue: string, timeouts: HostStepTimeouts): Record<HostStep, ActivityOptions> {
  const { testTimeoutMs, hostLostAfterMs = HOST_LOST_AFTER_MS, heartbeatTimeoutMs = HEARTBEAT_TIMEOUT_MS } = timeouts;
  const bound = { taskQueue: hostQueue, scheduleToStartTimeout: hostLostAfterMs };
  const waitForCancel = { cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED };
  const step = (startToCloseTimeout: ActivityOptions['startToCloseTimeout'], attempts: number) => ({
    ...bound,
    startToCloseTimeout,
    heartbeatTimeout: heartbeatTimeoutMs,
    retry: retry(attempts),
  });
  return {
    // Found in the cache in well under a second, or built: the set-up's own timeout, plus planning and unpacking.
    prepareEnvironment: { ...step(setupTimeoutOf(timeouts.environment) + 5 * 60_000, 3), ...waitForCancel },
    runCoder: { ...step(CODER_TIME_MS, 3), ...waitForCancel },
    runTests: { ...step(testTimeoutMs + 60_000, 3), ...waitForCancel },
    // The review's rules and a reviewer's or judge's model call.
    reviewChanges: step('5 minutes', 3),
    judgeChange: step('5 minutes', 3),
    askJudgeModel: step('5 minutes', 3),
    commitWorktree: step('2 minutes', 5),
    // The attempt's work is done (committed or given up) when the removal runs: a restarting host gets longer to take it.
    removeWorktree: {
      ...step('2 minutes', 5),
      scheduleToStartTimeout: Math.max(hostLostAfterMs, REMOVAL_WAIT_MS),
    },
  };
}

/**
 * Activities bound to one worktree run on the queue of the host that made it. A host that never picks them up
 * (it is gone, or it stopped heartbeating and the retry waits on its queue) surfaces within `hostLostAfterMs` as a
 * schedule-to-start timeout: the cause HostLost, and the attempt moves to a live host.
 * `beforeSchedule` runs before each node's call (the removal excepted: it is cleanup, and what changed waits for the
 * next call), so the workflow can upsert its search attributes once per workflow task.
 */
export function hostActivities(hostQueue: string, timeouts: HostStepTimeouts, beforeSchedule?: () => void) {
  const options = hostStepOptions(hostQueue, timeouts);
  return {
    prepareEnvironment: bind('prepareEnvironment', options.prepareEnvironment, beforeSchedule),
    runCoder: bind('runCoder', options.runCoder, beforeSchedule),
    runTests: bind('runTests', options.runTests, beforeSchedule),
    reviewChanges: bind('reviewChanges', options.reviewChanges, beforeSchedule),
    // The judge node of runs started before the patch decisions-in-workflow (workflows/task/task-run.ts).
    judgeChange: bind('judgeChange', options.judgeChange, beforeSchedule),
    askJudgeModel: bind('askJudgeModel', options.askJudgeModel, beforeSchedule),
    commitWorktree: bind('commitWorktree', options.commitWorktree, beforeSchedule),
    removeWorktree: bind('removeWorktree', options.removeWorktree),
  };
}

export type HostActivities = ReturnType<typeof hostActivities>;
