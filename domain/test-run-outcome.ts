// The outcome of a test run, decided once: passed, failed or error, the reason in words, the typed cause and the
// failure patterns, from how the process ended, its JUnit counts and its output. The test activity and the failure
// corpus both call it; pytest's exit codes are read from the one table in test-failure-cause.ts.
import type { FailureCause } from './failure-causes.js';
import type { FailurePattern } from './learning/patterns/types.js';
import type { TestOutcome } from './records.js';
import {
  causeOfTestRun,
  describePytestExit,
  patternsOfTestRun,
  unprovenPass,
  type TestRunFacts,
} from './test-failure-cause.js';

export type { TestRunFacts } from './test-failure-cause.js';

export interface TestRunDecision {
  outcome: TestOutcome;
  /** Why the run is an error, in words (a failed run needs none: its cases say it). */
  reason?: string;
  /** Why the run did not pass, typed (undefined when it passed). */
  cause?: FailureCause;
  /** The failure patterns the output shows (strongest first, at most 5), when the run did not pass. */
  patterns?: FailurePattern[];
}

/** passed / failed / error with its reason, and the typed cause and patterns of any run that did not pass. */
export function decideTestRun(facts: TestRunFacts): TestRunDecision {
  const decided = decideOutcome(facts);
  if (decided.outcome === 'passed') return decided;
  const cause = causeOfTestRun(facts);
  const patterns = patternsOfTestRun(facts, cause);
  // A module that cannot be imported ends pytest with exit 2, or 4 when node ids were given ("found no collectors"):
  // the reason is that error, not "pytest usage error: check testCommand" (the 1.5B, whose edit broke more.py's
  // indentation, was told to check the command).
  const reason = decided.outcome === 'error' && cause?.kind === 'CollectionError' ? cause.message : decided.reason;
  return {
    ...decided,
    ...(reason === undefined ? {} : { reason }),
    ...(cause === undefined ? {} : { cause }),
    patterns,
  };
}

function decideOutcome(facts: TestRunFacts): { outcome: TestOutcome; reason?: string } {
  const program = facts.program ?? 'the test command';
  if (facts.commandNotFound)
    return { outcome: 'error', reason: `environment problem: test command not found: ${program}` };
  if (facts.notExecutable) {
    return { outcome: 'error', reason: `environment problem: test command not executable: ${program}` };
  }
  if (facts.timedOut) return { outcome: 'error', reason: `timeout: test command exceeded ${facts.timeoutMs} ms` };
  if (facts.outputTooLarge) return { outcome: 'error', reason: 'test command output too large: the run was stopped' };
  if (facts.exitCode === null) {
    return { outcome: 'error', reason: `test command was killed by signal ${facts.signal ?? 'unknown'}` };
  }
  if (facts.pytest === false) return { outcome: facts.exitCode === 0 ? 'passed' : 'failed' };
  return decidePytestExit(facts.exitCode, facts);
}

/** pytest's exit code, cross-checked with its JUnit report: they must agree on whether any test failed. */
function decidePytestExit(exitCode: number, facts: TestRunFacts): { outcome: TestOutcome; reason?: string } {
  const failing = (facts.counts?.failed ?? 0) + (facts.counts?.errors ?? 0);
  const junitFound = facts.junitFound ?? facts.counts !== undefined;
  if (exitCode === 0) {
    if (failing === 0) {
      const unproven = unprovenPass(facts);
      return unproven === undefined ? { outcome: 'passed' } : { outcome: 'error', reason: unproven.message };
    }
    return {
      outcome: 'error',
      reason: `pytest exited 0 but its JUnit XML reports ${failing} failing test(s): exit code and XML disagree`,
    };
  }
  if (exitCode === 1) {
    if (junitFound && failing === 0) {
      return {
        outcome: 'error',
        reason: 'pytest exited 1 but its JUnit XML reports no failing test: exit code and XML disagree',
      };
    }
    return { outcome: 'failed' };
  }
  return { outcome: 'error', reason: describePytestExit(exitCode) };
}
