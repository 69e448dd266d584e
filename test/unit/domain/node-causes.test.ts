import { describe, expect, it } from 'vitest';
import {
  causeOfActivityFailure,
  causeOfCoderResult,
  causeOfFindings,
  causeOfTestResult,
} from '../../../domain/node-causes.js';
import { classifyCause } from '../../../domain/failure-causes.js';
import type { TestRunResult } from '../../../domain/records.js';
import { failedTestRun } from '../../support/test-run.js';

const testRun = (extra: Partial<TestRunResult>): TestRunResult =>
  failedTestRun({ counts: { total: 2, passed: 0, failed: 2, errors: 0, skipped: 0 }, ...extra });

describe('causeOfActivityFailure', () => {
  it('takes a cause kind from the failure type, and maps the provider types', () => {
    expect(
      causeOfActivityFailure({
        activityType: 'commitWorktree',
        failureType: 'GitLocked',
        message: 'index.lock',
        nonRetryable: false,
      }).kind,
    ).toBe('GitLocked');
    expect(
      causeOfActivityFailure({
        activityType: 'runCoder',
        failureType: 'ProviderAuthFailed',
        message: 'set OPENAI_API_KEY',
        nonRetryable: true,
      }),
    ).toEqual({
      kind: 'ModelAuth',
      message: 'set OPENAI_API_KEY',
    });
    expect(
      causeOfActivityFailure({
        activityType: 'runCoder',
        failureType: 'ProviderTimeout',
        message: 'slow',
        nonRetryable: false,
      }).kind,
    ).toBe('ModelUnavailable');
  });

  it('takes the cause of a type the git activities throw from its row', () => {
    expect(
      causeOfActivityFailure({
        activityType: 'claimWorktree',
        failureType: 'InvalidRepo',
        message: 'not a repo',
        nonRetryable: true,
      }),
    ).toEqual({ kind: 'InvalidRepo', message: 'not a repo' });
  });

  it("reads the SDK's PayloadsTooLarge as a task too large to describe: split_task, failed at once, never an environment problem", () => {
    const cause = causeOfActivityFailure({
      activityType: 'reviewChanges',
      failureType: 'PayloadsTooLarge',
      message: '[TMPRL1103] Attempted to upload payloads with size that exceeded the error limit. size=2169252',
      nonRetryable: false,
    });
    expect(cause.kind).toBe('PayloadTooLarge');
    expect(cause.message).toContain("reviewChanges's result was over Temporal's payload limit");
    expect(cause.message).toContain('size=2169252');
    expect(classifyCause(cause, 'review')).toEqual({ failureClass: 'split_task', retry: 'fail' });
  });

  it('keeps a type no row names Unknown, with the activity and whether it may be retried', () => {
    expect(
      causeOfActivityFailure({
        activityType: 'claimWorktree',
        failureType: 'TypeError',
        message: 'x is undefined',
        nonRetryable: true,
      }),
    ).toEqual({
      kind: 'Unknown',
      message: 'x is undefined',
      details: { activity: 'claimWorktree', nonRetryable: true, failureType: 'TypeError' },
    });
  });
});

describe('causeOfCoderResult', () => {
  it('prefers the cause the activity set', () => {
    expect(
      causeOfCoderResult({
        status: 'model_error',
        changedFiles: [],
        cause: { kind: 'ContextMissing', message: 'no such file' },
      }).kind,
    ).toBe('ContextMissing');
  });

  it('derives a cause from the status, with the partial progress of an out-of-steps run', () => {
    expect(causeOfCoderResult({ status: 'max_steps', changedFiles: ['a.py'], reason: 'max steps' })).toMatchObject({
      kind: 'CoderOutOfSteps',
      details: { changedFiles: 1 },
    });
    expect(causeOfCoderResult({ status: 'budget_exhausted', changedFiles: [] }).kind).toBe('BudgetExhausted');
    expect(
      causeOfCoderResult({
        status: 'model_error',
        changedFiles: [],
        reason: 'model problem: the scripted file /x.json has no coder turn left (used 3)',
      }).kind,
    ).toBe('ModelScriptExhausted');
    expect(
      causeOfCoderResult({ status: 'model_error', changedFiles: [], reason: 'model problem: malformed JSON' }).kind,
    ).toBe('ModelMalformed');
  });
});

describe('causeOfTestResult', () => {
  it('calls failing tests a defect and counts the modules they are in', () => {
    const cases = [
      { id: 'tests/test_a.py::test_1', outcome: 'failed' as const },
      { id: 'tests/test_a.py::test_2', outcome: 'failed' as const },
      { id: 'tests/test_b.py::test_1', outcome: 'passed' as const },
    ];
    expect(causeOfTestResult(testRun({ cases }))).toMatchObject({
      kind: 'TestsFailed',
      details: { failingModules: 1 },
    });
  });

  it('keeps the cause the activity set', () => {
    const cause = { kind: 'MissingEnvVar' as const, message: 'set API_TOKEN' };
    expect(causeOfTestResult(testRun({ outcome: 'error', cause }))).toEqual(cause);
  });
});

describe('causeOfFindings', () => {
  it('classes by the rule of a rejected approach first, else the first finding', () => {
    const findings = [
      { rule: 'python_syntax', message: 'calc.py: invalid syntax' },
      { rule: 'test_file_edited', message: 'tests/test_calc.py was edited' },
    ];
    expect(causeOfFindings('ReviewFinding', findings)).toMatchObject({
      kind: 'ReviewFinding',
      rule: 'test_file_edited',
    });
    expect(causeOfFindings('JudgeFinding', [{ rule: 'tests_failed', message: 'x' }])).toMatchObject({
      rule: 'tests_failed',
    });
  });
});
