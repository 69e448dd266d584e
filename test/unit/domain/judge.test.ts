import { describe, expect, it } from 'vitest';
import { judgeAttempt, matchesAcceptanceId, withModelVerdict } from '../../../domain/judge.js';
import type { ReviewResult, TestCaseResult, TestRunResult } from '../../../domain/records.js';

function testRun(cases: TestCaseResult[], overrides: Partial<TestRunResult> = {}): TestRunResult {
  const count = (outcome: TestCaseResult['outcome']) => cases.filter((c) => c.outcome === outcome).length;
  return {
    outcome: count('failed') + count('error') > 0 ? 'failed' : 'passed',
    exitCode: 0,
    counts: {
      total: cases.length,
      passed: count('passed'),
      failed: count('failed'),
      errors: count('error'),
      skipped: count('skipped'),
    },
    cases,
    casesTruncated: false,
    stdoutExcerpt: '',
    stderrExcerpt: '',
    durationMs: 10,
    ...overrides,
  };
}

const passedReview: ReviewResult = {
  passed: true,
  findings: [],
  changedFiles: ['src/calc.py'],
  diffStat: { files: 1, insertions: 2, deletions: 1 },
};
const passing = testRun([
  { id: 'tests/test_calc.py::test_add', outcome: 'passed' },
  { id: 'tests/test_calc.py::test_div', outcome: 'passed' },
]);

describe('judgeAttempt', () => {
  it('passes when tests, acceptance tests and review all pass, with evidence of each check', () => {
    const result = judgeAttempt({
      tests: passing,
      review: passedReview,
      acceptanceTests: ['tests/test_calc.py::test_div'],
    });
    expect(result.passed).toBe(true);
    expect(result.findings).toEqual([]);
    expect(result.evidence).toEqual([
      'tests: 2 passed, 0 failed, 0 errors, 0 skipped (outcome passed)',
      'acceptance tests/test_calc.py::test_div: passed',
      'acceptance: 1 of 1 passed',
      'review: passed with 0 findings',
    ]);
  });

  it('fails on a failed test run', () => {
    const tests = testRun([{ id: 'tests/test_calc.py::test_add', outcome: 'failed' }]);
    const result = judgeAttempt({ tests, review: passedReview, acceptanceTests: [] });
    expect(result.passed).toBe(false);
    expect(result.findings.map((f) => f.rule)).toEqual(['tests_failed']);
  });

  it('fails on a broken run and carries its reason', () => {
    const tests = testRun([], { outcome: 'error', exitCode: null, reason: 'timeout after 60000 ms' });
    const result = judgeAttempt({ tests, review: passedReview, acceptanceTests: [] });
    expect(result.findings[0]).toEqual({
      rule: 'tests_failed',
      message: 'test run error, 0 failed and 0 errors of 0: timeout after 60000 ms',
    });
  });

  it('fails when an acceptance test did not pass, even if the run passed', () => {
    const tests = testRun([{ id: 'tests/test_x.py::test_y', outcome: 'skipped' }]);
    const result = judgeAttempt({ tests, review: passedReview, acceptanceTests: ['tests/test_x.py::test_y'] });
    expect(result.passed).toBe(false);
    expect(result.findings).toEqual([
      { rule: 'acceptance_failed', message: 'acceptance test tests/test_x.py::test_y did not pass' },
    ]);
    expect(result.evidence).toContain('acceptance tests/test_x.py::test_y: failed');
  });

  it('fails when an acceptance test is missing, and mentions a truncated case list', () => {
    const tests = { ...passing, casesTruncated: true };
    const result = judgeAttempt({ tests, review: passedReview, acceptanceTests: ['tests/test_new.py::test_z'] });
    expect(result.findings[0]?.rule).toBe('acceptance_missing');
    expect(result.findings[0]?.message).toContain('truncated');
    expect(result.evidence).toContain('acceptance: 0 of 1 passed');
  });

  it('fails when the review failed and names its rules', () => {
    const review = {
      ...passedReview,
      passed: false,
      findings: [{ rule: 'test_file_edited', message: 'tests/test_calc.py changed' }],
    };
    const result = judgeAttempt({ tests: passing, review, acceptanceTests: [] });
    expect(result.findings).toEqual([{ rule: 'review_failed', message: 'review did not pass: test_file_edited' }]);
    expect(result.evidence).toContain('review: failed with 1 findings');
  });

  it('reports every failed check at once', () => {
    const tests = testRun([{ id: 'tests/test_x.py::test_y', outcome: 'failed' }]);
    const review = { ...passedReview, passed: false };
    const result = judgeAttempt({
      tests,
      review,
      acceptanceTests: ['tests/test_x.py::test_y', 'tests/test_x.py::test_gone'],
    });
    expect(result.findings.map((f) => f.rule)).toEqual([
      'tests_failed',
      'acceptance_failed',
      'acceptance_missing',
      'review_failed',
    ]);
  });
});

describe('matchesAcceptanceId', () => {
  it('matches equal ids and ids that end with :: and the other', () => {
    expect(matchesAcceptanceId('tests/test_x.py::test_y', 'tests/test_x.py::test_y')).toBe(true);
    expect(matchesAcceptanceId('tests/test_x.py::test_y', 'test_y')).toBe(true);
    expect(matchesAcceptanceId('test_y', 'tests/test_x.py::test_y')).toBe(true);
  });

  it('matches a case id that ends with the acceptance id at a path boundary', () => {
    expect(matchesAcceptanceId('pkg/tests/test_x.py::test_y', 'tests/test_x.py::test_y')).toBe(true);
    expect(matchesAcceptanceId('tests/test_x.py::test_y', 'x.py::test_y')).toBe(false);
    expect(matchesAcceptanceId('tests/test_x.py::test_yy', 'test_y')).toBe(false);
  });

  it('lets a file or class id cover its tests, and a plain id cover its parametrisations', () => {
    expect(matchesAcceptanceId('tests/test_x.py::test_y', 'tests/test_x.py')).toBe(true);
    expect(matchesAcceptanceId('tests/test_x.py::TestK::test_y', 'tests/test_x.py::TestK')).toBe(true);
    expect(matchesAcceptanceId('tests/test_x.py::test_y[1-2]', 'tests/test_x.py::test_y')).toBe(true);
    expect(matchesAcceptanceId('tests/test_x.py::test_y[1-2]', 'tests/test_x.py::test_y[3-4]')).toBe(false);
  });

  it('requires every parametrisation of an acceptance test to pass', () => {
    const tests = testRun(
      [
        { id: 'tests/test_x.py::test_y[a]', outcome: 'passed' },
        { id: 'tests/test_x.py::test_y[b]', outcome: 'failed' },
      ],
      { outcome: 'passed' },
    );
    expect(
      judgeAttempt({ tests, review: passedReview, acceptanceTests: ['tests/test_x.py::test_y'] }).findings[0]?.rule,
    ).toBe('acceptance_failed');
  });
});

describe('withModelVerdict', () => {
  const usage = { modelSpec: 'scripted:judge.json', modelRequests: 1, inputTokens: 9, outputTokens: 3 };
  const rules = { passed: true, evidence: ['tests: 2 passed'], findings: [] };
  const rejection = { rule: 'model_judge', message: 'the docstring says nothing' };

  it('passes only when the rules and the model both pass; the findings of both, the model agent and usage kept', () => {
    expect(withModelVerdict(rules, { passed: true, findings: [], agent: 'judge/judge-1', modelUsage: usage })).toEqual({
      ...rules,
      agent: 'judge/judge-1',
      modelUsage: usage,
    });
    const rejected = withModelVerdict(rules, { passed: false, findings: [rejection], agent: 'a', modelUsage: usage });
    expect(rejected).toMatchObject({ passed: false, findings: [rejection], evidence: ['tests: 2 passed'] });
    const failing = { ...rules, passed: false, findings: [{ rule: 'acceptance_missing', message: 'not found' }] };
    const merged = withModelVerdict(failing, { passed: true, findings: [], agent: 'a', modelUsage: usage });
    expect(merged).toMatchObject({ passed: false, findings: failing.findings });
  });
});
