// What the task workflow does after a failed node: rerun it, start a new attempt, wait for a person, or fail.
import type { FailureClass } from './failure-class.js';
import type { TaskNode } from './records.js';

/** The original Python loop (DESIGN.md) caps retries at 2 whatever the spec asks, so a task costs at most three model attempts. */
export const retryCap = 2;
/** Longest wait before rerunning a node after an environment problem. */
export const maxBackoffMs = 60_000;

/** Retries a task really gets: `maxRetries` capped at that limit. */
export function effectiveRetries(maxRetries: number): number {
  return Math.max(0, Math.min(maxRetries, retryCap));
}

export type Decision =
  | { kind: 'rerun_node'; node: TaskNode; backoffMs: number; reason: string }
  | { kind: 'new_attempt'; attemptStatus: 'REWORK_REQUIRED'; reason: string }
  | { kind: 'wait_for_hint'; attemptStatus: 'NEEDS_HINT'; reason: string }
  | { kind: 'fail'; attemptStatus: 'FAILED'; recommendation: FailureClass; reason: string };

export interface DecideNextInput {
  failureClass: FailureClass;
  node: TaskNode;
  /** New attempts already started because of failures (not node reruns, not hints). */
  retriesSpent: number;
  maxRetries: number;
  /** Node reruns already spent on environment problems in this task. */
  envRetriesUsed: number;
  envRetryLimit: number;
  baseBackoffMs: number;
}

/**
 * Decides what follows a failed node.
 * split_task and replan do not end the task at the first failure: most come from a review or judge rejection,
 * which a new attempt fixes once it sees the evidence; the class is the recommendation left when retries run out.
 */
export function decideNext(input: DecideNextInput): Decision {
  const { failureClass, node } = input;
  if (failureClass === 'environment_problem' && input.envRetriesUsed < input.envRetryLimit) {
    const backoffMs = Math.min(Math.max(0, input.baseBackoffMs) * 2 ** input.envRetriesUsed, maxBackoffMs);
    const rerun = input.envRetriesUsed + 1;
    return {
      kind: 'rerun_node',
      node,
      backoffMs,
      reason: `Environment problem at ${node}: rerunning the node in ${backoffMs} ms (rerun ${rerun} of ${input.envRetryLimit}), no new model attempt.`,
    };
  }
  if (failureClass === 'intent_ambiguity') {
    return {
      kind: 'wait_for_hint',
      attemptStatus: 'NEEDS_HINT',
      reason: `The goal is ambiguous (at ${node}): waiting for a hint through the retry update; no retry is spent.`,
    };
  }
  if (failureClass === 'budget_exhausted' || failureClass === 'missing_capability') {
    return {
      kind: 'fail',
      attemptStatus: 'FAILED',
      recommendation: failureClass,
      reason: `${describe(failureClass)} at ${node}: another attempt cannot help, so the task fails now.`,
    };
  }
  const allowed = effectiveRetries(input.maxRetries);
  if (input.retriesSpent < allowed) {
    return {
      kind: 'new_attempt',
      attemptStatus: 'REWORK_REQUIRED',
      reason: `${describe(failureClass)} at ${node}: starting a new attempt with the evidence (retry ${input.retriesSpent + 1} of ${allowed}).`,
    };
  }
  return {
    kind: 'fail',
    attemptStatus: 'FAILED',
    recommendation: failureClass,
    reason: `${describe(failureClass)} at ${node}: all ${allowed} retries are spent; recommendation: ${failureClass}.`,
  };
}

const descriptions: Record<FailureClass, string> = {
  budget_exhausted: 'Budget exhausted',
  missing_capability: 'Missing capability',
  context_problem: 'Context problem',
  environment_problem: 'Environment problem',
  model_problem: 'Model problem',
  intent_ambiguity: 'Ambiguous goal',
  replan: 'Plan rejected',
  split_task: 'Task too large or unresolved',
};

function describe(failureClass: FailureClass): string {
  return descriptions[failureClass];
}
