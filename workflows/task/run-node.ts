// Runs one node of an attempt and turns its failure into a typed cause, a class and a decision (the cause table in
// domain/failure-causes.ts). Re-runnable causes re-run the node here, with backoff, without a new model attempt.
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  isCancellation,
  sleep,
  TimeoutFailure,
} from '@temporalio/workflow';
import type { RetryKind } from '../../domain/cause-table.js';
import { classifyCause, type FailureCause } from '../../domain/failure-causes.js';
import { causeOfActivityFailure, causeOfFindings } from '../../domain/node-causes.js';
import type { CommitResult, Finding, TaskNode } from '../../domain/records.js';
import { classifyRepeatedTimeout } from '../../domain/repeated-timeout.js';
import { decideNext, type Decision } from '../../domain/retry-decision.js';
import type { AttemptFailure } from '../../domain/task-state.js';
import type { TaskRun } from './task-run.js';

export type NodeOutcome<T> = { ok: true; value: T } | { ok: false; cause: FailureCause };
/** Every decision but a node re-run, which never leaves runNode. */
export type FinalDecision = Exclude<Decision, { kind: 'rerun_node' }>;
/** A failed node's result says what the cause table allows (`retry`) beside what was decided with the limits spent. */
export type NodeResult<T> =
  { ok: true; value: T } | { ok: false; failure: AttemptFailure; decision: FinalDecision; retry: RetryKind };

export const passed = <T>(value: T): NodeOutcome<T> => ({ ok: true, value });
export const failed = (cause: FailureCause): NodeOutcome<never> => ({ ok: false, cause });
/** A review's or a judge's verdict as the node's outcome: its findings are the cause of a rejection. */
export const verdictOutcome = <V extends { passed: boolean; findings: readonly Finding[] }>(
  kind: 'ReviewFinding' | 'JudgeFinding',
  verdict: V,
): NodeOutcome<V> => (verdict.passed ? passed(verdict) : failed(causeOfFindings(kind, verdict.findings)));

/** How an activity's summary names a candidate after the first (`, candidate 2`): the first reads as before. */
export const candidateLabel = (ref: { candidate?: number }): string =>
  ref.candidate === undefined ? '' : `, candidate ${ref.candidate}`;

/** Where a passed change was made: its landing runs there (the host holds the repository and the environment). */
export interface PassedOnHost {
  hostQueue: string;
  environment?: { key: string; name: string; hostDir: string; interpreter: string };
}

export type AttemptResult =
  | { kind: 'passed'; commit: CommitResult; worktreeRemoved?: boolean; host?: PassedOnHost }
  | { kind: 'failed'; failure: AttemptFailure; decision: FinalDecision; retry?: RetryKind };

export interface AttemptContext {
  run: TaskRun;
  retriesSpent: number;
  /** Attempts of this task already abandoned because their host was lost. */
  reclaimsUsed: number;
}
/** Waits here while paused; cancellation ends the wait (the attempt scope is cancelled). */
export async function checkpoint(run: TaskRun, node: TaskNode): Promise<void> {
  if (run.state.paused) {
    run.setStatus('PAUSED');
    await run.flush();
    await condition(() => !run.state.paused);
    run.setStatus('RUNNING');
  }
  run.setPhase(node);
}

/** Runs the node's action and decides on its outcome; a re-runnable cause runs the action again after a backoff. */
export async function runNode<T>(
  context: AttemptContext,
  node: TaskNode,
  action: () => NodeOutcome<T> | Promise<NodeOutcome<T>>,
): Promise<NodeResult<T>> {
  const { run } = context;
  const record = run.currentAttempt;
  for (;;) {
    const outcome = await catchActivityFailure(action());
    if (outcome.ok) return outcome;
    const classified = classifyCause(outcome.cause, node);
    // A test node that hangs again after a re-run is the code's fault (runs started since HANG_IS_CODE_PATCH).
    const { cause, classified: final } = run.repeatedTimeoutIsCode
      ? classifyRepeatedTimeout(outcome.cause, classified, record.envRetries)
      : { cause: outcome.cause, classified };
    const { failureClass, retry } = final;
    const failure: AttemptFailure = { node, failureClass, reason: cause.message, cause };
    const decision = decideNext({
      failureClass,
      retry,
      causeMessage: cause.message,
      node,
      retriesSpent: context.retriesSpent,
      maxRetries: run.spec.maxRetries,
      envRetriesUsed: record.envRetries,
      envRetryLimit: run.spec.envRetryLimit,
      baseBackoffMs: 1000,
      reclaimsUsed: context.reclaimsUsed,
    });
    record.failure = failure;
    run.state.lastFailure = failure;
    if (decision.kind !== 'rerun_node') return { ok: false, failure, decision, retry };
    record.envRetries += 1;
    run.setPhase(node);
    run.flushSearchAttributes();
    await sleep(decision.backoffMs);
  }
}

/** Infrastructure failures that outlived their activity retries become typed causes (the failure's type names them). */
async function catchActivityFailure<T>(outcome: NodeOutcome<T> | Promise<NodeOutcome<T>>): Promise<NodeOutcome<T>> {
  try {
    return await outcome;
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    return failed(causeOfActivityError(error));
  }
}

function causeOfActivityError(error: ActivityFailure): FailureCause {
  const { cause } = error;
  const activityType = error.activityType ?? 'activity';
  if (cause instanceof TimeoutFailure) {
    // A host-bound activity nobody picked up (or whose host stopped heartbeating) means the host is gone.
    if (cause.timeoutType === 'SCHEDULE_TO_START') {
      return {
        kind: 'HostLost',
        message: `no worker of the host picked up ${activityType} in time: the host is gone; a live host takes over`,
        details: { activity: activityType },
      };
    }
    return causeOfActivityFailure({
      activityType,
      failureType: 'Timeout',
      message: `environment problem: worker lost or too slow (${cause.timeoutType ?? 'timeout'} on ${activityType})`,
      nonRetryable: false,
    });
  }
  if (cause instanceof ApplicationFailure) {
    return causeOfActivityFailure({
      activityType,
      failureType: cause.type ?? undefined,
      message: cause.message,
      nonRetryable: cause.nonRetryable === true,
    });
  }
  return causeOfActivityFailure({
    activityType,
    message: `environment problem: ${cause?.message ?? error.message}`,
    nonRetryable: false,
  });
}
