// The task workflow: attempts of claim -> code -> test -> review -> judge -> commit until one passes, a pure
// decision ends the task, or a person cancels it. Read top to bottom: each step is one call and one decision.
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  condition,
  isCancellation,
  setHandler,
} from '@temporalio/workflow';
import type { TaskSpec } from '../domain/task-spec.js';
import { outcomeOfState, type TaskOutcome } from '../domain/task-state.js';
import { cancelSignal, pauseSignal, resumeSignal, retryUpdate, stateQuery, type RetryRequest } from './messages.js';
import { awaitApproval, registerApprovalHandlers } from './task/approval.js';
import { learnFromFailure } from './task/learning.js';
import { landingFailureClass, landingFailureReason, landPassedChange } from './task/landing.js';
import { runAttempt } from './task/run-attempt.js';
import type { AttemptResult } from './task/run-node.js';
import { taskFailedFailure } from './task/task-failed.js';
import { TaskRun, type CarriedEvidence } from './task/task-run.js';
import { observeAttempt, observeTaskEnd } from './metrics.js';

export interface TaskWorkflowInput {
  spec: TaskSpec;
  /** Evidence of an earlier run of this workflow id, when `taskloop retry` starts it again after it closed. */
  carried?: CarriedEvidence;
  /** A hint for the first attempt of this run. */
  hint?: string;
}

/** How long a task ended by a cancel signal waits for the workflow cancel request its sender said follows. */
const CANCEL_REQUEST_WAIT = '30 seconds';

/**
 * Runs the task; its end is its Temporal state: COMPLETED returns the outcome, FAILED fails the workflow with
 * `TaskFailed` (the outcome in its details), CANCELLED by a workflow cancel request ends it cancelled.
 */
export async function taskWorkflow(input: TaskWorkflowInput): Promise<TaskOutcome> {
  const run = new TaskRun(input.spec, input.carried);
  run.pendingHint = input.hint;
  registerHandlers(run);
  const root = CancellationScope.current();
  void root.cancelRequested.catch(() => {
    run.cancelRequested = true;
    run.cancelReason ??= 'cancelled by a workflow cancel request';
  });
  let outcome: TaskOutcome;
  try {
    outcome = await runTask(run);
  } catch (error) {
    // A cancel request can interrupt any wait (a hint, the retry window): the task still ends with an outcome.
    if (!isCancellation(error) || !root.consideredCancelled) throw error;
    outcome = await CancellationScope.nonCancellable(() => finish(run, 'CANCELLED', run.cancelReason));
  }
  if (outcome.status === 'FAILED') throw taskFailedFailure(outcome);
  // The signal that ended the task may have come alone, its cancel request still on the way: returning now would end
  // the workflow Completed. A cancel that never sends its request (its sender died) ends so after the wait.
  if (outcome.status === 'CANCELLED' && run.cancelRequestFollows && !root.consideredCancelled)
    await CancellationScope.nonCancellable(() => condition(() => root.consideredCancelled, CANCEL_REQUEST_WAIT));
  // Only a workflow cancel request (`taskloop cancel`, a project's cancel) can end a workflow as cancelled; a bare
  // cancel signal ends the task CANCELLED with its outcome returned.
  if (outcome.status === 'CANCELLED' && root.consideredCancelled)
    throw new CancelledFailure(outcome.reason ?? 'cancelled');
  return outcome;
}

async function runTask(run: TaskRun): Promise<TaskOutcome> {
  let retriesSpent = 0;
  let reclaimsUsed = 0;

  for (;;) {
    run.beginAttempt();
    const result = await runCancellable(run, () => runAttempt({ run, retriesSpent, reclaimsUsed }));
    if (result === 'cancelled')
      return CancellationScope.nonCancellable(() => finish(run, 'CANCELLED', run.cancelReason ?? 'cancelled'));
    if (result.kind === 'passed') {
      run.state.commit = result.commit;
      run.currentAttempt.status = 'PASSED';
      observeAttempt(run);
      // A person is the last judge of a task with `approval: required` (workflows/task/approval.ts).
      const approval = run.spec.approval === 'required' ? await awaitApproval(run, result.commit) : undefined;
      if (approval?.kind === 'changes-requested') {
        retriesSpent = 0;
        // The round starts from the change the person read, not from a head a landing went back on before.
        run.baseOverride = undefined;
        continue;
      }
      if (approval?.kind === 'ended') return finish(run, approval.status, approval.reason, approval.recommendation);
      // A task with `landOn` lands through its branch's queue (workflows/task/landing.ts).
      const landing = run.spec.landOn ? await landPassedChange(run, result.commit, result.host) : undefined;
      // Cancelled while queued: the change was withdrawn (or the queue said nothing); one that landed meanwhile is
      // on the target all the same, and the task says so (COMPLETED).
      if (run.spec.landOn && (!landing || (run.cancelRequested && landing.status !== 'landed')))
        return finish(run, 'CANCELLED', run.cancelReason ?? 'cancelled while landing');
      if (landing?.status === 'sent_back' && retriesSpent < run.spec.maxRetries) {
        retriesSpent += 1;
        continue;
      }
      if (landing && landing.status !== 'landed')
        return finish(run, 'FAILED', landingFailureReason(landing), landingFailureClass(landing));
      return finish(run, 'COMPLETED');
    }

    const { failure, decision } = result;
    run.currentAttempt.status = decision.attemptStatus;
    run.currentAttempt.endedAt = new Date().toISOString();
    observeAttempt(run);
    const taskFailed = { node: failure.node, failure_class: failure.failureClass, reason: failure.reason };
    const retrying = decision.kind === 'new_attempt' || decision.kind === 'reclaim';
    if (decision.kind !== 'wait_for_hint') run.emit('TASK_FAILED', { will_retry: retrying, ...taskFailed });
    if (!retrying && decision.kind !== 'wait_for_hint')
      run.emit('TASK_RETRY_EXHAUSTED', { recommendation: decision.recommendation, attempts: run.state.attempt });
    // The attempt's events reach the sink together with what learning records: one workflow task for all of it.
    await learnFromFailure(run, run.currentAttempt);
    if (retrying) {
      if (decision.kind === 'new_attempt') retriesSpent += 1;
      else reclaimsUsed += 1;
      continue;
    }
    if (decision.kind === 'wait_for_hint') {
      run.setStatus('WAITING_FOR_HINT');
      await run.flush();
      await condition(() => run.retryRequested || run.cancelRequested);
      if (run.cancelRequested)
        return finish(run, 'CANCELLED', run.cancelReason ?? 'cancelled while waiting for a hint');
      continue;
    }
    if (await waitInRetryWindow(run)) {
      retriesSpent = 0;
      continue;
    }
    const reason = decision.reason.includes(failure.reason)
      ? decision.reason
      : `${decision.reason} (${failure.reason})`;
    return finish(run, run.cancelRequested ? 'CANCELLED' : 'FAILED', reason, decision.recommendation);
  }
}

/** The attempt runs in its own scope so that `cancel` stops the running node at once. */
async function runCancellable(
  run: TaskRun,
  attempt: () => Promise<AttemptResult>,
): Promise<AttemptResult | 'cancelled'> {
  // A cancel that arrived before this attempt (even before the first one) must not be lost.
  if (run.cancelRequested) {
    run.currentAttempt.status = 'CANCELLED';
    return 'cancelled';
  }
  const scope = new CancellationScope();
  run.attemptScope = scope;
  try {
    return await scope.run(attempt);
  } catch (error) {
    if (isCancellation(error)) {
      run.currentAttempt.status = 'CANCELLED';
      return 'cancelled';
    }
    throw error;
  } finally {
    run.attemptScope = undefined;
  }
}

/** A failed task stays open for its retry window (default none); true when a `retry` arrived in time. */
async function waitInRetryWindow(run: TaskRun): Promise<boolean> {
  const windowMs = run.spec.retryWindowMs;
  if (windowMs <= 0) return false;
  run.state.retryWindowEndsAt = new Date(Date.now() + windowMs).toISOString();
  run.setStatus('FAILED');
  await run.flush();
  const retried = await condition(() => run.retryRequested || run.cancelRequested, windowMs);
  run.state.retryWindowEndsAt = undefined;
  return retried && run.retryRequested && !run.cancelRequested;
}

async function finish(
  run: TaskRun,
  status: TaskOutcome['status'],
  reason?: string,
  recommendation?: TaskOutcome['recommendation'],
): Promise<TaskOutcome> {
  const { state } = run;
  const last = state.attempts.at(-1);
  if (last && !last.endedAt) last.endedAt = new Date().toISOString();
  state.phase = 'done';
  state.reason = reason;
  state.recommendation = status === 'FAILED' ? recommendation : undefined;
  run.setStatus(status);
  run.refreshTelemetry();
  observeTaskEnd(state);
  if (status === 'COMPLETED') run.emit('TASK_COMPLETED', { sha: state.commit?.sha, attempts: state.attempt });
  if (status === 'CANCELLED') run.emit('TASK_CANCELLED', { reason });
  // One scope for both waits: every scope costs the SDK's per-promise stack tracking a few promises. No wait for
  // handlers when none runs (the common case): condition() alone costs a few promises too.
  await CancellationScope.nonCancellable(async () => {
    await run.flush();
    if (!allHandlersFinished()) await condition(allHandlersFinished);
  });
  return outcomeOfState(state);
}

function registerHandlers(run: TaskRun): void {
  setHandler(stateQuery, () => run.state);
  registerApprovalHandlers(run);
  setHandler(pauseSignal, () => {
    run.state.paused = true;
    // Shown at once: the running node finishes first, then the task stops at its next checkpoint.
    if (run.state.status === 'RUNNING') run.setStatus('PAUSE_REQUESTED');
    run.flushSearchAttributes();
  });
  setHandler(resumeSignal, () => {
    run.state.paused = false;
    if (run.state.status === 'PAUSE_REQUESTED') run.setStatus('RUNNING');
    run.flushSearchAttributes();
  });
  setHandler(cancelSignal, (request) => {
    run.cancelRequested = true;
    run.cancelReason = request?.reason ?? 'cancelled by signal';
    run.cancelRequestFollows ||= request?.requestFollows === true;
    run.state.paused = false;
    run.attemptScope?.cancel();
  });
  setHandler(
    retryUpdate,
    (request?: RetryRequest) => {
      run.retryRequested = true;
      run.pendingHint = request?.hint;
      return { attempt: run.state.attempt + 1 };
    },
    {
      validator: (_request?: RetryRequest) => {
        const { status } = run.state;
        if (status !== 'WAITING_FOR_HINT' && !(status === 'FAILED' && run.state.retryWindowEndsAt)) {
          throw ApplicationFailure.nonRetryable(
            `task ${run.state.taskId} is ${status}: retry is accepted only while it waits for a hint or for a retry after failing`,
          );
        }
      },
    },
  );
}
