import { describe, expect, it } from 'vitest';
import { decideNext, effectiveRetries, type DecideNextInput } from '../../../domain/retry-decision.js';

const base: DecideNextInput = {
  failureClass: 'model_problem',
  node: 'test',
  retriesSpent: 0,
  maxRetries: 2,
  envRetriesUsed: 0,
  envRetryLimit: 3,
  baseBackoffMs: 1_000,
};

describe('effectiveRetries', () => {
  it('caps retries at 2 like the original loop', () => {
    expect(effectiveRetries(5)).toBe(2);
    expect(effectiveRetries(2)).toBe(2);
    expect(effectiveRetries(1)).toBe(1);
    expect(effectiveRetries(0)).toBe(0);
  });
});

describe('decideNext', () => {
  it('reruns the node after an environment problem with exponential backoff', () => {
    expect(decideNext({ ...base, failureClass: 'environment_problem' })).toMatchObject({ kind: 'rerun_node', node: 'test', backoffMs: 1_000 });
    expect(decideNext({ ...base, failureClass: 'environment_problem', envRetriesUsed: 2 })).toMatchObject({ backoffMs: 4_000 });
  });

  it('caps the backoff at 60 seconds', () => {
    const decision = decideNext({ ...base, failureClass: 'environment_problem', envRetriesUsed: 9, envRetryLimit: 10 });
    expect(decision).toMatchObject({ kind: 'rerun_node', backoffMs: 60_000 });
  });

  it('treats an environment problem like any other once the rerun limit is used up', () => {
    const atLimit = { ...base, failureClass: 'environment_problem' as const, envRetriesUsed: 3 };
    expect(decideNext(atLimit)).toMatchObject({ kind: 'new_attempt', attemptStatus: 'REWORK_REQUIRED' });
    expect(decideNext({ ...atLimit, retriesSpent: 2 })).toMatchObject({
      kind: 'fail',
      attemptStatus: 'FAILED',
      recommendation: 'environment_problem',
    });
  });

  it('never reruns a node when the environment retry limit is 0', () => {
    expect(decideNext({ ...base, failureClass: 'environment_problem', envRetryLimit: 0 })).toMatchObject({ kind: 'new_attempt' });
  });

  it('waits for a hint on ambiguity, even with every retry spent', () => {
    for (const retriesSpent of [0, 2]) {
      expect(decideNext({ ...base, failureClass: 'intent_ambiguity', retriesSpent })).toMatchObject({
        kind: 'wait_for_hint',
        attemptStatus: 'NEEDS_HINT',
      });
    }
  });

  it('fails at once on budget exhaustion and missing capability', () => {
    for (const failureClass of ['budget_exhausted', 'missing_capability'] as const) {
      expect(decideNext({ ...base, failureClass })).toMatchObject({ kind: 'fail', recommendation: failureClass });
    }
  });

  it('starts new attempts for model, context, replan and split failures while retries remain', () => {
    for (const failureClass of ['model_problem', 'context_problem', 'replan', 'split_task'] as const) {
      expect(decideNext({ ...base, failureClass, retriesSpent: 1 }).kind).toBe('new_attempt');
    }
  });

  it('fails exactly when the spent retries reach the limit, recommending the class', () => {
    expect(decideNext({ ...base, failureClass: 'split_task', retriesSpent: 1 }).kind).toBe('new_attempt');
    expect(decideNext({ ...base, failureClass: 'split_task', retriesSpent: 2 })).toMatchObject({ kind: 'fail', recommendation: 'split_task' });
    expect(decideNext({ ...base, failureClass: 'replan', maxRetries: 0 })).toMatchObject({ kind: 'fail', recommendation: 'replan' });
  });

  it('still caps maxRetries 5 at 2 retries', () => {
    expect(decideNext({ ...base, maxRetries: 5, retriesSpent: 2 }).kind).toBe('fail');
  });

  it('explains each decision in a sentence naming the node', () => {
    const reason = decideNext({ ...base, node: 'review', failureClass: 'replan', retriesSpent: 2 }).reason;
    expect(reason).toMatch(/^Plan rejected at review: .*\.$/);
  });
});
