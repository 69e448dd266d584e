// What the task workflow does after a failed node, from the retry kind the cause table gave: rerun the node,
// start a new attempt, reclaim on a live host, wait for a person, or fail.
import type { FailureClass } from './failure-class.js';
import { classTable, type RetryKind } from './failure-causes.js';
import type { TaskNode } from './records.js';

/** The original Python loop (DESIGN.md) caps retries at 2, so a task costs at most three model attempts; a larger `--max-retries` is refused. */
export const retryCap = 2;
/** Longest wait before rerunning a node after an environment problem. */
export const maxBackoffMs = 60_000;
/** New attempts started because a host was lost, per task: they spend no coder retry, so they are bounded here. */
export const reclaimLimit = 3;

/** Retries a task really gets: `maxRetries` capped at that limit. */
export function effectiveRetries(maxRetries: number): number {
  return Math.max(0, Math.min(maxRetries, retryCap));
}

export type Decision =
  | { kind: 'rerun_node'; node: TaskNode; backoffMs: number; reason: string }
  | { kind: 'new_attempt'; attemptStatus: 'REWORK_REQUIRED'; reason: string }
  | { kind: 'reclaim'; attemptStatus: 'HOST_LOST'; reason: string }
  | { kind: 'wait_for_hint'; attemptStatus: 'NEEDS_HINT'; reason: string }
  | { kind: 'fail'; attemptStatus: 'FAILED'; recommendation: FailureClass; reason: string };

export interface DecideNextInput {
  failureClass: FailureClass;
  /** What the cause table says a retry can be (failure-causes.ts). */
  retry: RetryKind;
  /** The cause's one-line message: a failing decision repeats it, so the reason names the fix. */
  causeMessage?: string;
  node: TaskNode;
  /** New attempts already started because of failures (not node reruns, not hints, not reclaims). */
  retriesSpent: number;
  maxRetries: number;
  /** Node reruns already spent on environment problems in this attempt. */
  envRetriesUsed: number;
  envRetryLimit: number;
  baseBackoffMs: number;
  /** Attempts already abandoned because their host was lost. */
  reclaimsUsed?: number;
}

/** Decides what follows a failed node. */
export function decideNext(input: DecideNextInput): Decision {
  const { failureClass, node } = input;
  const what = `${describe(failureClass)} at ${node}`;
  const because = input.causeMessage ? `: ${input.causeMessage}` : '';
  const fail = (reason: string): Decision => ({
    kind: 'fail',
    attemptStatus: 'FAILED',
    recommendation: failureClass,
    reason,
  });
  switch (input.retry) {
    case 'rerun_node': {
      if (input.envRetriesUsed >= input.envRetryLimit) {
        return fail(
          `${what}${because} (still failing after ${input.envRetryLimit} reruns of the node; no coder attempt was spent).`,
        );
      }
      const backoffMs = Math.min(Math.max(0, input.baseBackoffMs) * 2 ** input.envRetriesUsed, maxBackoffMs);
      return {
        kind: 'rerun_node',
        node,
        backoffMs,
        reason: `${what}: rerunning the node in ${backoffMs} ms (rerun ${input.envRetriesUsed + 1} of ${input.envRetryLimit}), no new model attempt.`,
      };
    }
    case 'reclaim': {
      const used = input.reclaimsUsed ?? 0;
      if (used >= reclaimLimit)
        return fail(`${what}${because} (${reclaimLimit} hosts were lost in this task; check the workers).`);
      return {
        kind: 'reclaim',
        attemptStatus: 'HOST_LOST',
        reason: `${what}${because}: abandoning the attempt and claiming a live host from the base ref (reclaim ${used + 1} of ${reclaimLimit}, no coder retry spent).`,
      };
    }
    case 'wait_for_hint':
      return {
        kind: 'wait_for_hint',
        attemptStatus: 'NEEDS_HINT',
        reason: `The goal is ambiguous (at ${node}): waiting for a hint through the retry update; no retry is spent.`,
      };
    case 'fail':
      return fail(`${what}${because} (another coder attempt cannot fix this, so the task fails now).`);
    case 'new_attempt': {
      const allowed = effectiveRetries(input.maxRetries);
      if (input.retriesSpent < allowed) {
        return {
          kind: 'new_attempt',
          attemptStatus: 'REWORK_REQUIRED',
          reason: `${what}: starting a new attempt with the evidence (retry ${input.retriesSpent + 1} of ${allowed}).`,
        };
      }
      return fail(`${what}: all ${allowed} retries are spent; recommendation: ${failureClass}.`);
    }
  }
}

function describe(failureClass: FailureClass): string {
  return classTable[failureClass].description;
}
