// Whether an instance is resolved, from the per-test results of the independent verification run: every
// FAIL_TO_PASS test passes and every PASS_TO_PASS test still passes. A test that did not run counts as failing.
import type { TestCaseResult } from '../records.js';

export type TestVerdict = 'passed' | 'failed' | 'missing';

/** How one list of tests fared: counts, and the tests that did not pass (at most 20, so payloads stay small). */
export interface TestListVerdict {
  total: number;
  passed: number;
  notPassing: Record<string, TestVerdict>;
}

export interface Verification {
  resolved: boolean;
  /** The sha checked out (the task's commit, or the base ref when it committed nothing). */
  sha: string;
  checked: 'commit' | 'base';
  failToPass: TestListVerdict;
  passToPass: TestListVerdict;
  /** Why it is not resolved, in one line (absent when resolved). */
  reason?: string;
}

const MAX_NAMED = 20;

/** `id (verdict)` for the first few, then how many more. */
function named(bad: (readonly [string, TestVerdict])[]): string {
  const shown = bad.slice(0, 5).map(([id, v]) => `${id} (${v})`);
  return bad.length > 5 ? `${shown.join(', ')} and ${bad.length - 5} more` : shown.join(', ');
}

/** The cases a node id covers: itself, its class's or file's tests, its parametrisations. */
function casesOf(id: string, cases: readonly TestCaseResult[]): TestCaseResult[] {
  return cases.filter((c) => c.id === id || c.id.startsWith(`${id}::`) || c.id.startsWith(`${id}[`));
}

/** One node id's verdict: passed when it ran and none of its cases failed; skipped cases pass only `allowSkipped`. */
export function verdictOf(id: string, cases: readonly TestCaseResult[], allowSkipped: boolean): TestVerdict {
  const found = casesOf(id, cases);
  if (found.length === 0) return 'missing';
  const ok = found.every((c) => c.outcome === 'passed' || (allowSkipped && c.outcome === 'skipped'));
  return ok && found.some((c) => c.outcome === 'passed' || allowSkipped) ? 'passed' : 'failed';
}

/** Decides resolution; a skipped FAIL_TO_PASS test has not been shown to pass, a skipped PASS_TO_PASS one broke nothing. */
export function decideResolved(input: {
  sha: string;
  checked: 'commit' | 'base';
  failToPass: readonly string[];
  passToPass: readonly string[];
  cases: readonly TestCaseResult[];
  /** Set when the run itself broke (timeout, collection error of the whole command): nothing is resolved. */
  runError?: string;
}): Verification {
  const badF2p = input.failToPass
    .map((id) => [id, verdictOf(id, input.cases, false)] as const)
    .filter(([, v]) => v !== 'passed');
  const badP2p = input.passToPass
    .map((id) => [id, verdictOf(id, input.cases, true)] as const)
    .filter(([, v]) => v !== 'passed');
  const listVerdict = (ids: readonly string[], bad: (readonly [string, TestVerdict])[]): TestListVerdict => ({
    total: ids.length,
    passed: ids.length - bad.length,
    notPassing: Object.fromEntries(bad.slice(0, MAX_NAMED)),
  });
  const reasons = [
    ...(input.runError ? [`the test run broke: ${input.runError}`] : []),
    ...(badF2p.length > 0 ? [`FAIL_TO_PASS not passing: ${named(badF2p)}`] : []),
    ...(badP2p.length > 0 ? [`PASS_TO_PASS broken: ${named(badP2p)}`] : []),
  ];
  const resolved = reasons.length === 0 && input.failToPass.length > 0;
  return {
    resolved,
    sha: input.sha,
    checked: input.checked,
    failToPass: listVerdict(input.failToPass, badF2p),
    passToPass: listVerdict(input.passToPass, badP2p),
    ...(resolved ? {} : { reason: reasons.join('; ').slice(0, 2000) || 'no FAIL_TO_PASS test' }),
  };
}

/** The record of a verification that could not run at all (the commit gone, the clone failing): not resolved. */
export function unverified(sha: string, checked: 'commit' | 'base', why: string): Verification {
  const none = { total: 0, passed: 0, notPassing: {} };
  return {
    resolved: false,
    sha,
    checked,
    failToPass: none,
    passToPass: none,
    reason: `not verified: ${why}`.slice(0, 2000),
  };
}
