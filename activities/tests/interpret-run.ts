// Decides a test run's outcome from how the process ended, cross-checked with the JUnit cases.
import type { FailureCause } from '../../domain/failure-causes.js';
import type { TestOutcome } from '../../domain/records.js';
import type { FailurePattern } from '../../domain/learning/patterns/types.js';
import { causeOfTestRun, patternsOfTestRun, type TestRunFacts } from '../../domain/test-failure-cause.js';

export interface RunFacts {
  pytest: boolean;
  argv0: string;
  timeoutMs: number;
  exitCode: number | null;
  signal?: string;
  timedOut: boolean;
  spawnError?: 'ENOENT' | 'EACCES';
  outputTooLarge: boolean;
  /** Failed plus errored cases in the JUnit XML. */
  failingCases: number;
  junitFound: boolean;
  /** Scrubbed output and the case counts, read for the run's cause. */
  stdout?: string;
  stderr?: string;
  counts?: { passed: number; failed: number; errors: number };
  /** The repository's top-level Python modules: a missing module outside them is an environment cause. */
  ownModules?: readonly string[];
}

export interface RunInterpretation {
  outcome: TestOutcome;
  reason?: string;
  /** Why the run did not pass, typed (undefined when it passed). */
  cause?: FailureCause;
  /** The failure patterns the output shows (strongest first, at most 5), when the run did not pass. */
  patterns?: FailurePattern[];
}

// pytest's documented exit codes other than 0 (all passed) and 1 (some failed).
const pytestErrors: Record<number, string> = {
  2: 'test run interrupted or collection errors (pytest exit 2)',
  3: 'pytest internal error (pytest exit 3)',
  4: 'pytest usage error (pytest exit 4): check the test command and its paths',
  5: 'environment problem: no tests collected (pytest exit 5)',
};

/** passed / failed / error, with a reason for errors in words, and the typed cause of any run that did not pass. */
export function interpretRun(facts: RunFacts): RunInterpretation {
  const decided = decideOutcome(facts);
  if (decided.outcome === 'passed') return decided;
  const runFacts: TestRunFacts = {
    exitCode: facts.exitCode,
    timedOut: facts.timedOut,
    timeoutMs: facts.timeoutMs,
    commandNotFound: facts.spawnError === 'ENOENT',
    program: facts.argv0,
    outputTooLarge: facts.outputTooLarge,
    stdout: facts.stdout ?? '',
    stderr: facts.stderr ?? '',
    counts: facts.counts,
    ownModules: facts.ownModules,
    pytest: facts.pytest,
  };
  const cause = causeOfTestRun(runFacts);
  const patterns = patternsOfTestRun(runFacts, cause);
  return { ...decided, ...(cause === undefined ? {} : { cause }), patterns };
}

function decideOutcome(facts: RunFacts): RunInterpretation {
  if (facts.spawnError === 'ENOENT') {
    return { outcome: 'error', reason: `environment problem: test command not found: ${facts.argv0}` };
  }
  if (facts.spawnError === 'EACCES') {
    return { outcome: 'error', reason: `environment problem: test command not executable: ${facts.argv0}` };
  }
  if (facts.timedOut) return { outcome: 'error', reason: `timeout: test command exceeded ${facts.timeoutMs} ms` };
  if (facts.outputTooLarge) return { outcome: 'error', reason: 'test command output too large: the run was stopped' };
  if (facts.exitCode === null) {
    return { outcome: 'error', reason: `test command was killed by signal ${facts.signal ?? 'unknown'}` };
  }
  if (!facts.pytest) return { outcome: facts.exitCode === 0 ? 'passed' : 'failed' };
  return interpretPytestExit(facts.exitCode, facts);
}

function interpretPytestExit(exitCode: number, facts: RunFacts): { outcome: TestOutcome; reason?: string } {
  if (exitCode === 0) {
    if (facts.failingCases === 0) return { outcome: 'passed' };
    return {
      outcome: 'error',
      reason: `pytest exited 0 but its JUnit XML reports ${facts.failingCases} failing test(s): exit code and XML disagree`,
    };
  }
  if (exitCode === 1) {
    if (facts.junitFound && facts.failingCases === 0) {
      return {
        outcome: 'error',
        reason: 'pytest exited 1 but its JUnit XML reports no failing test: exit code and XML disagree',
      };
    }
    return { outcome: 'failed' };
  }
  return { outcome: 'error', reason: pytestErrors[exitCode] ?? `unexpected pytest exit code ${exitCode}` };
}
