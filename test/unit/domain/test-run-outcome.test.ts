import { describe, expect, it } from 'vitest';
import { pytestExitCodes } from '../../../domain/test-failure-cause.js';
import { decideTestRun, type TestRunFacts } from '../../../domain/test-run-outcome.js';

const facts: TestRunFacts = {
  pytest: true,
  program: 'python',
  timeoutMs: 1000,
  exitCode: 0,
  timedOut: false,
  commandNotFound: false,
  outputTooLarge: false,
  junitFound: true,
  counts: { passed: 2, failed: 0, errors: 0 },
  stdout: '',
  stderr: '',
};
const failing = (n: number) => ({ counts: { passed: 0, failed: n, errors: 0 } });

describe('decideTestRun', () => {
  it('calls exit 0 with failing cases in the XML an error, saying they disagree', () => {
    const result = decideTestRun({ ...facts, exitCode: 0, ...failing(2) });
    expect(result.outcome).toBe('error');
    expect(result.reason).toContain('disagree');
  });

  it('calls exit 1 with no failing case in the XML an error, but trusts exit 1 when there is no XML', () => {
    expect(decideTestRun({ ...facts, exitCode: 1 }).outcome).toBe('error');
    expect(decideTestRun({ ...facts, exitCode: 1, ...failing(1) }).outcome).toBe('failed');
    expect(decideTestRun({ ...facts, exitCode: 1, junitFound: false, counts: undefined })).toMatchObject({
      outcome: 'failed',
      cause: { kind: 'TestsFailed' },
    });
  });

  it('calls pytest exit 0 with no JUnit report, or a report of no test case, an error: nothing shows a test ran', () => {
    const noReport = decideTestRun({ ...facts, exitCode: 0, junitFound: false, counts: undefined });
    expect(noReport).toMatchObject({
      outcome: 'error',
      cause: { kind: 'TestRunUnproven', details: { missing: 'report' } },
    });
    expect(noReport.reason).toBe(noReport.cause?.message);
    expect(noReport.reason).toContain('left no JUnit report');
    const noCase = decideTestRun({ ...facts, exitCode: 0, testCases: 0, counts: { passed: 0, failed: 0, errors: 0 } });
    expect(noCase).toMatchObject({
      outcome: 'error',
      cause: { kind: 'TestRunUnproven', details: { missing: 'test case' } },
    });
    expect(noCase.reason).toContain('holds no test case');
    // Skipped cases are cases: a run of only skipped tests proved it ran. A command that is not pytest has no report.
    expect(decideTestRun({ ...facts, testCases: 2, counts: { passed: 0, failed: 0, errors: 0 } }).outcome).toBe(
      'passed',
    );
    expect(decideTestRun({ ...facts, pytest: false, junitFound: false, counts: undefined }).outcome).toBe('passed');
  });

  it('names internal and usage errors by their pytest exit codes', () => {
    expect(decideTestRun({ ...facts, exitCode: 3 }).reason).toContain('pytest exit 3');
    expect(decideTestRun({ ...facts, exitCode: 4 }).reason).toContain('pytest exit 4');
    expect(decideTestRun({ ...facts, exitCode: 7 }).reason).toBe('unexpected pytest exit code 7');
  });

  it('reads every pytest exit code from the one table: the reason and the cause say the same', () => {
    for (const [code, exit] of Object.entries(pytestExitCodes)) {
      const decided = decideTestRun({ ...facts, exitCode: Number(code) });
      expect(decided.outcome).toBe('error');
      expect(decided.reason).toContain(exit.meaning);
      expect(decided.cause?.kind).toBe(exit.kind);
      expect(decided.cause?.message).toBe(decided.reason);
    }
  });

  it('treats a command that is not pytest by its exit code alone', () => {
    expect(decideTestRun({ ...facts, pytest: false, exitCode: 5 })).toMatchObject({
      outcome: 'failed',
      cause: { kind: 'TestsFailed' },
    });
  });

  it('calls a command that may not be run an environment problem', () => {
    expect(decideTestRun({ ...facts, exitCode: null, notExecutable: true })).toMatchObject({
      outcome: 'error',
      reason: 'environment problem: test command not executable: python',
      cause: { kind: 'TestCommandNotFound' },
    });
  });

  it('reports a command killed by a signal as an error', () => {
    expect(decideTestRun({ ...facts, exitCode: null, signal: 'SIGKILL' })).toMatchObject({
      outcome: 'error',
      reason: 'test command was killed by signal SIGKILL',
    });
  });

  it('types the cause from the output and passes the repository modules on, with the patterns of the output', () => {
    const stdout =
      "E   ModuleNotFoundError: No module named 'calc.extra'\n!!! Interrupted: 1 error during collection !!!";
    const own = decideTestRun({
      ...facts,
      exitCode: 2,
      counts: { passed: 0, failed: 0, errors: 1 },
      stdout,
      ownModules: ['calc'],
    });
    expect(own.cause).toMatchObject({ kind: 'CollectionError' });
    expect(own.patterns?.[0]).toMatchObject({ type: 'cross_dep', symbols: ['calc.extra'] });
    const thirdParty = decideTestRun({
      ...facts,
      exitCode: 2,
      counts: { passed: 0, failed: 0, errors: 1 },
      stdout,
      ownModules: ['tests'],
    });
    expect(thirdParty.cause).toMatchObject({
      kind: 'MissingThirdPartyModule',
      message:
        "module 'calc.extra' not found: the tests ran with the worker's Python; run the task with its repository's dependencies (--environment auto on taskloop run, environment: auto in a tasks file or taskloop.config.json; see taskloop env build), or install the package 'calc' in the worker's Python",
    });
    expect(thirdParty.patterns?.[0]).toMatchObject({ type: 'test_infra' });
  });

  it('gives a module that cannot be imported its error as the reason, whether pytest exits 2 or 4', () => {
    // pytest given node ids exits 4 ("found no collectors") when their module fails to import: the 1.5B's edit broke
    // more.py's indentation and run_tests told it "pytest usage error: check testCommand and its paths".
    const stdout = [
      '_____________________ ERROR collecting tests/test_more.py ______________________',
      'E     File "/w/more_itertools/more.py", line 1224',
      'E       yield list(iterable)',
      "E   IndentationError: expected an indented block after 'if' statement on line 1223",
      '=========================== short test summary info ============================',
      'ERROR tests/test_more.py',
    ].join('\n');
    const stderr = 'ERROR: found no collectors for /w/tests/test_more.py::SplitBeforeTest';
    for (const exitCode of [2, 4]) {
      const decided = decideTestRun({
        ...facts,
        exitCode,
        counts: { passed: 0, failed: 0, errors: 1 },
        stdout,
        stderr,
      });
      expect(decided).toMatchObject({ outcome: 'error', cause: { kind: 'CollectionError' } });
      expect(decided.reason).toBe(
        "IndentationError in /w/more_itertools/more.py line 1224: expected an indented block after 'if' statement on line 1223: fix the syntax there",
      );
    }
  });

  it('gives a passing run neither cause nor patterns, and a timed-out run a cause but no patterns', () => {
    expect(decideTestRun(facts)).toEqual({ outcome: 'passed' });
    expect(decideTestRun({ ...facts, exitCode: null, timedOut: true, stdout: 'E   assert 1 == 2' })).toMatchObject({
      cause: { kind: 'TestTimeout' },
      patterns: [],
    });
  });
});
