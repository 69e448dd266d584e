// The typed cause of a test run that did not pass, from how the process ended and what it printed.
// (A minimal version; the pattern work refines the output rules.)
import type { FailureCause } from './failure-causes.js';

export interface TestRunFacts {
  pytest: boolean;
  argv0: string;
  timeoutMs: number;
  exitCode: number | null;
  timedOut: boolean;
  spawnError?: 'ENOENT' | 'EACCES';
  outputTooLarge: boolean;
  /** Failed plus errored cases in the JUnit XML. */
  failingCases: number;
  /** The run's stdout and stderr (scrubbed). */
  output: string;
}

/** Undefined when the run passed; otherwise the cause, with a message that names the fix where there is one. */
export function causeOfTestRun(facts: TestRunFacts): FailureCause | undefined {
  if (facts.spawnError) {
    const problem = facts.spawnError === 'ENOENT' ? 'was not found' : 'is not executable';
    return { kind: 'TestCommandNotFound', message: `the test command ${facts.argv0} ${problem} on the host: install it or fix --test-command`, details: { argv0: facts.argv0 } };
  }
  if (facts.timedOut) return { kind: 'TestTimeout', message: `the test command ran past its ${facts.timeoutMs} ms timeout (raise the task's testTimeoutMs if the suite is slow, or fix a hanging test)` };
  if (facts.outputTooLarge) return { kind: 'OutputTooLarge', message: 'the test command printed more output than taskloop keeps: run fewer or quieter tests (e.g. pytest -q)' };
  if (facts.exitCode === 0 && facts.failingCases === 0) return undefined;
  const envVar = missingEnvVar(facts.output);
  if (envVar) return { kind: 'MissingEnvVar', message: `the tests read environment variable ${envVar}, which is not set: pass it with --test-env ${envVar}=...`, details: { variable: envVar } };
  if (/ConnectionRefusedError|Connection refused/.test(facts.output)) {
    return { kind: 'ConnectionRefused', message: 'the tests could not connect to a service (connection refused): start the service the tests need' };
  }
  if (facts.pytest && facts.exitCode === 4) return { kind: 'TestUsageError', message: 'pytest usage error (exit 4): check the test command and its paths' };
  if (facts.pytest && facts.exitCode === 5) return { kind: 'NoTestsCollected', message: 'pytest collected no tests (exit 5): check the test command and its paths' };
  if (facts.pytest && facts.exitCode === 2) return { kind: 'CollectionError', message: 'pytest could not collect the tests (exit 2): a syntax or import error in the change' };
  return { kind: 'TestsFailed', message: `tests failed (exit ${facts.exitCode ?? 'killed'}, ${facts.failingCases} failing)` };
}

/** `KeyError: 'NAME'` raised from `os.environ[...]`, or `os.environ["NAME"]` next to a KeyError. */
function missingEnvVar(output: string): string | undefined {
  if (!/os\.environ|getenv/.test(output)) return undefined;
  return /KeyError: '([A-Z][A-Z0-9_]*)'/.exec(output)?.[1];
}
