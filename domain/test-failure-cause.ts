// The typed cause of a test run that did not pass, from the facts of the run (how it ended, its output, its counts).
import type { FailureCause } from './failure-causes.js';
import { capPatterns, classifyTestOutput } from './learning/patterns/classify.js';
import { isThirdPartyModule } from './learning/patterns/line-rules.js';
import type { FailurePattern } from './learning/patterns/types.js';

export interface TestRunFacts {
  exitCode: number | null;
  timedOut: boolean;
  timeoutMs?: number;
  /** The program could not be started (ENOENT). */
  commandNotFound: boolean;
  /** The program exists but may not be run (EACCES). */
  notExecutable?: boolean;
  /** The signal that killed the process, when one did. */
  signal?: string;
  /** Whether the run left a JUnit report (counts then come from it); default: counts were given. */
  junitFound?: boolean;
  /** How many test cases the report holds, skipped ones included; default: passed + failed + errors of counts. */
  testCases?: number;
  /** argv[0], for messages. */
  program?: string;
  outputTooLarge: boolean;
  stdout: string;
  stderr: string;
  counts?: { passed: number; failed: number; errors: number };
  /** The repository's top-level Python module names; without them a missing module counts as the change's fault. */
  ownModules?: readonly string[];
  /** False for a command that is not pytest: its exit codes carry no pytest meaning. Default true. */
  pytest?: boolean;
  /** The built environment the run used (activities/environments): a missing package belongs in its set-up. */
  environment?: string;
}

const line = (text: string, pattern: RegExp): RegExpMatchArray | undefined =>
  text
    .split(/\r?\n/)
    .map((l) => l.replace(/^E\s+/, '').trim())
    .map((l) => l.match(pattern))
    .find((m) => m !== null) ?? undefined;

/** Why the run did not pass, or undefined when it passed. Environment causes are read before code defects. */
export function causeOfTestRun(facts: TestRunFacts): FailureCause | undefined {
  const program = facts.program ?? 'the test command';
  if (facts.commandNotFound || facts.notExecutable) {
    const problem = facts.commandNotFound ? 'not found' : 'not executable';
    return cause(
      'TestCommandNotFound',
      `test command ${problem}: ${program}: install it on the worker or fix the task's testCommand`,
      { program },
    );
  }
  if (facts.timedOut) {
    const limit = facts.timeoutMs === undefined ? '' : ` within ${facts.timeoutMs} ms`;
    return cause(
      'TestTimeout',
      `tests did not finish${limit}: a test hangs or waits for something; fix the hang or raise the task's test timeout`,
    );
  }
  if (facts.outputTooLarge) {
    return cause(
      'OutputTooLarge',
      'test output too large, the run was stopped: make the tests print less (no large prints, pytest -q)',
    );
  }
  const failures = (facts.counts?.failed ?? 0) + (facts.counts?.errors ?? 0);
  if (facts.exitCode === 0 && failures === 0) return unprovenPass(facts);
  if (facts.exitCode === null)
    return cause('Unknown', `the test command was killed by ${facts.signal ? `signal ${facts.signal}` : 'a signal'}`);
  const text = `${facts.stdout}\n${facts.stderr}`;
  if (facts.pytest === false) return testsFailed(facts, text);
  return (
    environmentCause(text, facts.ownModules, facts.environment) ??
    collectionError(text) ??
    pytestExitCause(facts, text) ??
    testsFailed(facts, text)
  );
}

function environmentCause(
  text: string,
  ownModules: readonly string[] | undefined,
  environment: string | undefined,
): FailureCause | undefined {
  const missing = [...text.matchAll(/ModuleNotFoundError: No module named '([^']+)'/g)]
    .map((m) => m[1]!)
    .find((m) => isThirdPartyModule(m, ownModules));
  if (missing !== undefined) {
    const top = missing.split('.')[0]!;
    return cause(
      'MissingThirdPartyModule',
      environment === undefined
        ? `module '${missing}' not found: the tests ran with the worker's Python; run the task with its repository's dependencies (--environment auto on taskloop run, environment: auto in a tasks file or taskloop.config.json; see taskloop env build), or install the package '${top}' in the worker's Python`
        : `add the package '${top}' to the task's environment set-up (module '${missing}' not found in environment ${environment})`,
      { module: missing },
    );
  }
  const variable = missingVariable(text);
  if (variable !== undefined) {
    return cause(
      'MissingEnvVar',
      `environment variable ${variable} is not set: set ${variable} in the task's testEnv`,
      { variable },
    );
  }
  if (/ConnectionRefusedError|\bConnection refused\b|ECONNREFUSED/.test(text)) {
    const address = text.match(
      /(?:\(\s*'|host=')?(\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3})\b)'?(?:,\s*|:|', port=)(\d{1,5})\b/,
    );
    const where = address === null ? '' : ` to ${address[1]}:${address[2]}`;
    return cause(
      'ConnectionRefused',
      `connection refused${where}: a service the tests need is not running; start it before the tests or point the tests at one`,
      address === null ? undefined : { address: `${address[1]}:${address[2]}` },
    );
  }
  return undefined;
}

/** A variable named by an explicit message, or the key of a KeyError raised by os.environ. */
function missingVariable(text: string): string | undefined {
  const named =
    line(text, /^[\w.]+: .*?(?:\b[Ee]nvironment variable|\benv var)s?:?\s+[`'"]?([A-Z_][A-Z0-9_]+)/) ??
    line(text, /^[\w.]+: .*?[`'"]?\b([A-Z][A-Z0-9_]+)[`'"]? (?:environment variable|env var)\b/);
  if (named !== undefined) return named[1];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const key = lines[i]!.replace(/^E\s+/, '')
      .trim()
      .match(/^KeyError: '([A-Za-z_]\w*)'$/);
    if (key === null) continue;
    const before = lines.slice(Math.max(0, i - 40), i).join('\n');
    if (/\bos\.environ\b|\benviron\[|<frozen os>|\bgetenv\(/.test(before)) return key[1];
  }
  return undefined;
}

/**
 * A pytest exit 0 that nothing proves: no JUnit report, or one without a single test case (pytest itself exits 5 when
 * it collects nothing). Code under test can delete the report and call os._exit(0): such a run is not a pass.
 */
export function unprovenPass(facts: TestRunFacts): FailureCause | undefined {
  if (facts.pytest === false || facts.exitCode !== 0) return undefined;
  const junitFound = facts.junitFound ?? facts.counts !== undefined;
  if (!junitFound) {
    return cause(
      'TestRunUnproven',
      "pytest exited 0 but left no JUnit report, so nothing shows that a test ran: code the tests ran ended the process early (os._exit) or removed the report; a run passes only with pytest's report of its cases",
      { missing: 'report' },
    );
  }
  const counts = facts.counts;
  const cases = facts.testCases ?? (counts === undefined ? 0 : counts.passed + counts.failed + counts.errors);
  if (cases > 0) return undefined;
  return cause(
    'TestRunUnproven',
    "pytest exited 0 but its JUnit report holds no test case, so nothing shows that a test ran: code the tests ran rewrote the report or ended the process early; a run passes only with pytest's report of its cases",
    { missing: 'test case' },
  );
}

function collectionError(text: string): FailureCause | undefined {
  const collecting = /ERROR collecting |errors? during collection|ImportError while loading conftest/.test(text);
  if (!collecting) return undefined;
  const syntax = line(text, /^(SyntaxError|IndentationError|TabError): (.*)$/);
  if (syntax !== undefined) {
    const where = text.match(/File "([^"]+)", line (\d+)/);
    const at = where === null ? '' : ` in ${where[1]} line ${where[2]}`;
    return cause(
      'CollectionError',
      `${syntax[1]}${at}: ${syntax[2]}: fix the syntax there`,
      where === null ? undefined : { file: where[1]!, line: Number(where[2]) },
    );
  }
  const error = line(text, /^((?:ModuleNotFoundError|ImportError|AttributeError|NameError|TypeError): .*)$/);
  const conftest = line(text, /^ImportError while loading conftest '([^']+)'/);
  const what =
    error?.[1] ??
    (conftest === undefined ? 'a test module could not be imported' : `conftest ${conftest[1]} could not be imported`);
  return cause(
    'CollectionError',
    `tests could not be collected: ${what}: fix the import in the project's code or tests`,
  );
}

/** pytest's documented exit codes besides 0 (all passed) and 1 (some failed): what each means, its cause, its fix. */
export const pytestExitCodes: Readonly<Record<number, { meaning: string; kind: FailureCause['kind']; fix?: string }>> =
  {
    2: { meaning: 'the test run was interrupted or collection failed', kind: 'Unknown' },
    3: { meaning: 'pytest internal error', kind: 'Unknown' },
    4: { meaning: 'pytest usage error', kind: 'TestUsageError', fix: 'check testCommand and its paths' },
    5: {
      meaning: 'no tests collected',
      kind: 'NoTestsCollected',
      fix: "check testCommand's paths and -k/-m selections, and that test files are named test_*.py",
    },
  };

/** A pytest exit code in words, with its fix: `pytest usage error (pytest exit 4): check testCommand and its paths`. */
export function describePytestExit(exitCode: number): string {
  const known = pytestExitCodes[exitCode];
  if (known === undefined) return `unexpected pytest exit code ${exitCode}`;
  return `${known.meaning} (pytest exit ${exitCode})${known.fix === undefined ? '' : `: ${known.fix}`}`;
}

function pytestExitCause(facts: TestRunFacts, text: string): FailureCause | undefined {
  const known = facts.exitCode === null ? undefined : pytestExitCodes[facts.exitCode];
  if (known === undefined) return undefined;
  if (known.kind === 'TestUsageError') {
    const missingPath = line(text, /^ERROR: file or directory not found: (.+)$/);
    if (missingPath !== undefined) {
      return cause('TestUsageError', `check testCommand: path ${missingPath[1]} not found`, { path: missingPath[1]! });
    }
    const option = line(text, /error: unrecognized arguments: (.+)$/);
    if (option !== undefined)
      return cause('TestUsageError', `check testCommand: unknown option ${option[1]}`, { option: option[1]! });
    const first = line(text, /^(?:ERROR|error): (.+)$/);
    return cause('TestUsageError', `${describePytestExit(4)}${first === undefined ? '' : ` (${first[1]})`}`);
  }
  return cause(known.kind, describePytestExit(facts.exitCode!));
}

function testsFailed(facts: TestRunFacts, text: string): FailureCause {
  const counts = facts.counts;
  const failing = counts === undefined ? 0 : counts.failed + counts.errors;
  const total = counts === undefined ? 0 : counts.passed + failing;
  const first = line(text, /^((?:FAILED|ERROR) \S+)/);
  const howMany = failing > 0 ? `${failing} of ${total} tests failed` : `tests failed (exit code ${facts.exitCode})`;
  const fixture = line(text, /^fixture '([^']+)' not found/);
  const fix =
    fixture === undefined
      ? 'fix the code so they pass'
      : `fixture '${fixture[1]}' not found: define it (e.g. in conftest.py) or fix the test`;
  return cause(
    'TestsFailed',
    `${howMany}${first === undefined ? '' : ` (first: ${first[1]})`}: ${fix}`,
    failing > 0 ? { failing, total } : undefined,
  );
}

function cause(kind: FailureCause['kind'], message: string, details?: FailureCause['details']): FailureCause {
  return details === undefined ? { kind, message } : { kind, message, details };
}

/** Runs cut short (or never started): their output is no test report, so it shows no failure patterns. */
const cutShort: ReadonlySet<FailureCause['kind']> = new Set(['TestTimeout', 'OutputTooLarge', 'TestCommandNotFound']);
/** Causes read from error text in the output: that text also shows the failure patterns. */
const readFromErrors: ReadonlySet<FailureCause['kind']> = new Set([
  'TestsFailed',
  'CollectionError',
  'MissingThirdPartyModule',
  'MissingEnvVar',
  'ConnectionRefused',
]);

/**
 * The failure patterns of a run that did not pass (at most `maxPatterns`, strongest first): none for a run cut
 * short, or for a usage error or empty selection with no failing test; the output's patterns otherwise, even when
 * no JUnit report was written (an import error in conftest stops pytest before it writes one).
 */
export function patternsOfTestRun(facts: TestRunFacts, cause: FailureCause | undefined): FailurePattern[] {
  if (cause === undefined || cutShort.has(cause.kind)) return [];
  const failures = (facts.counts?.failed ?? 0) + (facts.counts?.errors ?? 0);
  if (failures === 0 && !readFromErrors.has(cause.kind)) return [];
  const output = `${facts.stdout}\n${facts.stderr}`;
  return capPatterns(
    classifyTestOutput({ output, counts: failures > 0 ? facts.counts : undefined, ownModules: facts.ownModules }),
  );
}
