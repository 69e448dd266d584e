// Runs one node of an attempt and turns its failure into a classified, decided failure. Environment problems
// re-run the node here, with backoff, without a new model attempt.
import { ActivityFailure, ApplicationFailure, condition, isCancellation, sleep, TimeoutFailure } from '@temporalio/workflow';
import { classifyFailure } from '../../domain/failure-class.js';
import type { Finding, TaskNode } from '../../domain/records.js';
import { decideNext, type Decision } from '../../domain/retry-decision.js';
import type { AttemptFailure } from '../../domain/task-state.js';
import type { TaskRun } from './task-run.js';

export type NodeOutcome<T> = { ok: true; value: T } | { ok: false; reason: string; findings?: Finding[] };
/** Every decision but a node re-run, which never leaves runNode. */
export type FinalDecision = Exclude<Decision, { kind: 'rerun_node' }>;
export type NodeResult<T> = { ok: true; value: T } | { ok: false; failure: AttemptFailure; decision: FinalDecision };

export const passed = <T>(value: T): NodeOutcome<T> => ({ ok: true, value });
export const failed = (reason: string, findings?: Finding[]): NodeOutcome<never> => ({ ok: false, reason, findings });

export interface AttemptContext {
  run: TaskRun;
  retriesSpent: number;
}

/** Waits here while paused; cancellation ends the wait (the attempt scope is cancelled). */
export async function checkpoint(run: TaskRun, node: TaskNode): Promise<void> {
  if (run.state.paused) {
    run.setStatus('PAUSED');
    await condition(() => !run.state.paused);
    run.setStatus('RUNNING');
  }
  run.setPhase(node);
}

export async function runNode<T>(context: AttemptContext, node: TaskNode, action: () => Promise<NodeOutcome<T>>): Promise<NodeResult<T>> {
  const { run } = context;
  const record = run.currentAttempt;
  for (;;) {
    const outcome = await catchActivityFailure(action);
    if (outcome.ok) return outcome;
    const failureClass = classifyFailure({ node, reason: outcome.reason, findings: outcome.findings });
    const failure: AttemptFailure = { node, failureClass, reason: outcome.reason };
    const decision: Decision = outcome.fatal
      ? { kind: 'fail', attemptStatus: 'FAILED', recommendation: failureClass, reason: `${node} failed in a way retrying cannot fix` }
      : decideNext({
          failureClass,
          node,
          retriesSpent: context.retriesSpent,
          maxRetries: run.spec.maxRetries,
          envRetriesUsed: record.envRetries,
          envRetryLimit: run.spec.envRetryLimit,
          baseBackoffMs: 1000,
        });
    record.failure = failure;
    run.state.lastFailure = failure;
    if (decision.kind !== 'rerun_node') return { ok: false, failure, decision };
    record.envRetries += 1;
    run.setPhase(node);
    await sleep(decision.backoffMs);
  }
}

type Caught<T> = NodeOutcome<T> & { fatal?: boolean };

/** Infrastructure failures that outlived their activity retries become node failures the classifier can read. */
async function catchActivityFailure<T>(action: () => Promise<NodeOutcome<T>>): Promise<Caught<T>> {
  try {
    return await action();
  } catch (error) {
    if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
    const cause = error.cause;
    if (cause instanceof ApplicationFailure && cause.nonRetryable) return { ok: false, reason: cause.message, fatal: true };
    if (cause instanceof TimeoutFailure) {
      return { ok: false, reason: `environment problem: worker lost or too slow (${cause.timeoutType ?? 'timeout'} on ${error.activityType})` };
    }
    return { ok: false, reason: `environment problem: ${error.activityType} failed after its retries: ${cause?.message ?? error.message}` };
  }
}
