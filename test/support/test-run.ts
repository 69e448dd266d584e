import type { TestRunResult } from '../../domain/records.js';

/** The record of a test run with one failing test and nothing else, with `extra` fields on top. */
export function failedTestRun(extra: Partial<TestRunResult> = {}): TestRunResult {
  return {
    outcome: 'failed',
    exitCode: 1,
    counts: { total: 1, passed: 0, failed: 1, errors: 0, skipped: 0 },
    cases: [],
    casesTruncated: false,
    stdoutExcerpt: '',
    stderrExcerpt: '',
    durationMs: 1,
    ...extra,
  };
}
