// Counts of all cases, and a bounded list with the failing ones first (payloads must stay small).
import type { TestCaseResult, TestRunResult } from '../../domain/records.js';

export function countCases(cases: TestCaseResult[]): TestRunResult['counts'] {
  const count = (outcome: TestCaseResult['outcome']) => cases.filter((entry) => entry.outcome === outcome).length;
  return {
    total: cases.length,
    passed: count('passed'),
    failed: count('failed'),
    errors: count('error'),
    skipped: count('skipped'),
  };
}

/** At most `maxCases` cases, failed and errored first, each group in report order. */
export function boundCases(
  cases: TestCaseResult[],
  maxCases: number,
): { cases: TestCaseResult[]; casesTruncated: boolean } {
  const isFailing = (entry: TestCaseResult) => entry.outcome === 'failed' || entry.outcome === 'error';
  const ordered = [...cases.filter(isFailing), ...cases.filter((entry) => !isFailing(entry))];
  const limit = Math.max(0, Math.floor(maxCases));
  return { cases: ordered.slice(0, limit), casesTruncated: ordered.length > limit };
}
