import { describe, expect, it } from 'vitest';
import { decideNext, effectiveRetries, reclaimLimit, type DecideNextInput } from '../../../domain/retry-decision.js';

const base: DecideNextInput = {
  failureClass: 'code_defect',
  retry: 'new_attempt',
  node: 'test',
  retriesSpent: 0,
  maxRetries: 2,
  envRetriesUsed: 0,
  envRetryLimit: 3,
  baseBackoffMs: 1_000,
};
const environment = { ...base, failureClass: 'environment_problem' as const };

describe('effectiveRetries', () => {
  it('caps retries at 2 like the original loop', () => {
    expect(effectiveRetries(5)).toBe(2);
    expect(effectiveRetries(2)).toBe(2);
    expect(effectiveRetries(1)).toBe(1);
    expect(effectiveRetries(0)).toBe(0);
  });
});

describe('decideNext: rerun_node', () => {
  it('reruns the node with exponential backoff', () => {
    expect(decideNext({ ...environment, retry: 'rerun_node' })).toMatchObject({
      kind: 'rerun_node',
      node: 'test',
      backoffMs: 1_000,
    });
    expect(decideNext({ ...environment, retry: 'rerun_node', envRetriesUsed: 2 })).toMatchObject({ backoffMs: 4_000 });
  });

  it('caps the backoff at 60 seconds', () => {
    const decision = decideNext({ ...environment, retry: 'rerun_node', envRetriesUsed: 9, envRetryLimit: 10 });
    expect(decision).toMatchObject({ kind: 'rerun_node', backoffMs: 60_000 });
  });

  it('fails once the reruns are used up, spending no coder attempt and repeating the cause', () => {
    const decision = decideNext({
      ...environment,
      retry: 'rerun_node',
      envRetriesUsed: 3,
      causeMessage: 'the model server answered 503',
    });
    expect(decision).toMatchObject({ kind: 'fail', attemptStatus: 'FAILED', recommendation: 'environment_problem' });
    expect(decision.reason).toContain('the model server answered 503');
    expect(decision.reason).toContain('no coder attempt was spent');
  });

  it('fails at once when the rerun limit is 0', () => {
    expect(decideNext({ ...environment, retry: 'rerun_node', envRetryLimit: 0 }).kind).toBe('fail');
  });
});

describe('decideNext: fail', () => {
  it('fails at once whatever retries remain, and the reason names the fix', () => {
    const decision = decideNext({
      ...environment,
      retry: 'fail',
      causeMessage: 'tests need API_TOKEN: set it with --test-env API_TOKEN=...',
    });
    expect(decision).toMatchObject({ kind: 'fail', recommendation: 'environment_problem' });
    expect(decision.reason).toMatch(/^Environment problem at test: tests need API_TOKEN: set it with --test-env/);
  });

  it('fails on budget exhaustion and missing capability', () => {
    for (const failureClass of ['budget_exhausted', 'missing_capability'] as const) {
      expect(decideNext({ ...base, failureClass, retry: 'fail' })).toMatchObject({
        kind: 'fail',
        recommendation: failureClass,
      });
    }
  });
});

describe('decideNext: new_attempt', () => {
  it('starts new attempts while retries remain', () => {
    for (const failureClass of ['code_defect', 'model_problem', 'context_problem', 'replan'] as const) {
      expect(decideNext({ ...base, failureClass, retriesSpent: 1 })).toMatchObject({
        kind: 'new_attempt',
        attemptStatus: 'REWORK_REQUIRED',
      });
    }
  });

  it('fails exactly when the spent retries reach the limit, recommending the class', () => {
    expect(decideNext({ ...base, retriesSpent: 1 }).kind).toBe('new_attempt');
    expect(decideNext({ ...base, retriesSpent: 2 })).toMatchObject({ kind: 'fail', recommendation: 'code_defect' });
    expect(decideNext({ ...base, failureClass: 'replan', maxRetries: 0 })).toMatchObject({
      kind: 'fail',
      recommendation: 'replan',
    });
  });

  it('still caps maxRetries 5 at 2 retries', () => {
    expect(decideNext({ ...base, maxRetries: 5, retriesSpent: 2 }).kind).toBe('fail');
  });

  it('explains each decision in a sentence naming the node', () => {
    const reason = decideNext({ ...base, node: 'review', failureClass: 'replan', retriesSpent: 2 }).reason;
    expect(reason).toMatch(/^Plan rejected at review: .*\.$/);
  });
});

describe('decideNext: reclaim', () => {
  it('abandons the attempt for a live host without spending a retry, even with every retry spent', () => {
    const decision = decideNext({ ...environment, retry: 'reclaim', retriesSpent: 2, reclaimsUsed: 0 });
    expect(decision).toMatchObject({ kind: 'reclaim', attemptStatus: 'HOST_LOST' });
    expect(decision.reason).toContain(`reclaim 1 of ${reclaimLimit}`);
  });

  it('fails when the reclaims are used up', () => {
    expect(decideNext({ ...environment, retry: 'reclaim', reclaimsUsed: reclaimLimit })).toMatchObject({
      kind: 'fail',
      recommendation: 'environment_problem',
    });
  });
});

describe('decideNext: wait_for_hint', () => {
  it('waits for a hint, even with every retry spent', () => {
    for (const retriesSpent of [0, 2]) {
      expect(
        decideNext({ ...base, failureClass: 'intent_ambiguity', retry: 'wait_for_hint', retriesSpent }),
      ).toMatchObject({
        kind: 'wait_for_hint',
        attemptStatus: 'NEEDS_HINT',
      });
    }
  });
});
