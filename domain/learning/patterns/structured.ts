// Level 2: patterns read from structured results (counts and per-failure error types).
import { makePattern } from './types.js';
import type { FailurePattern } from './types.js';

export interface TestCounts {
  passed: number;
  failed: number;
  errors: number;
}

/** More failures than this (with a low pass rate) means the behaviour itself is complex. */
export const complexFailureCount = 5;
export const complexPassRateBelow = 0.5;
/** At least this share of import errors among failures points to one missing dependency. */
export const importRootCauseShare = 0.8;

const isImportError = (type: string): boolean => /(?:^|\.)(?:ImportError|ModuleNotFoundError)$/.test(type.trim());

/** Patterns implied by the shape of a run rather than by any single line. */
export function classifyStructured(counts?: TestCounts, failureTypes?: string[]): FailurePattern[] {
  const patterns: FailurePattern[] = [];
  if (counts !== undefined) {
    const failures = counts.failed + counts.errors;
    const total = counts.passed + failures;
    const passRate = total === 0 ? 0 : counts.passed / total;
    if (failures > complexFailureCount && passRate < complexPassRateBelow) {
      const evidence = `${failures} failures with pass rate ${(passRate * 100).toFixed(0)}% (${counts.passed} of ${total} passed)`;
      patterns.push(makePattern('complex_behavior', 0.7, [], evidence));
    }
  }
  if (failureTypes !== undefined && failureTypes.length > 0) {
    const imports = failureTypes.filter(isImportError).length;
    if (imports / failureTypes.length >= importRootCauseShare) {
      const evidence = `${imports} of ${failureTypes.length} failures are import errors: one missing dependency is the likely root cause`;
      patterns.push(makePattern('cross_dep', 0.9, [], evidence));
    }
  }
  return patterns;
}
