import { describe, expect, it } from 'vitest';
import { causeOfTestRun, patternsOfTestRun, type TestRunFacts } from '../../../domain/test-failure-cause.js';

const ran: TestRunFacts = {
  exitCode: 1,
  timedOut: false,
  commandNotFound: false,
  outputTooLarge: false,
  stdout: '',
  stderr: '',
  ownModules: ['calc', 'tests'],
};
const run = (facts: Partial<TestRunFacts>) => causeOfTestRun({ ...ran, ...facts });
const collection = (error: string) =>
  `____ ERROR collecting tests/test_a.py ____\n${error}\n!!! Interrupted: 1 error during collection !!!`;

describe('causeOfTestRun', () => {
  it('gives no cause to a passing run', () => {
    expect(run({ exitCode: 0, counts: { passed: 3, failed: 0, errors: 0 } })).toBeUndefined();
  });

  it('reads how the run ended before its output: not found, timeout, too much output', () => {
    expect(run({ commandNotFound: true, program: 'pytest-x', exitCode: null })).toEqual({
      kind: 'TestCommandNotFound',
      message: "test command not found: pytest-x: install it on the worker or fix the task's testCommand",
      details: { program: 'pytest-x' },
    });
    expect(run({ timedOut: true, timeoutMs: 20000, exitCode: null, stdout: 'E   assert 1 == 2' })?.kind).toBe(
      'TestTimeout',
    );
    expect(run({ timedOut: true, timeoutMs: 20000, exitCode: null })?.message).toContain('within 20000 ms');
    expect(run({ outputTooLarge: true, exitCode: null })?.kind).toBe('OutputTooLarge');
    expect(run({ exitCode: null })).toEqual({ kind: 'Unknown', message: 'the test command was killed by a signal' });
  });

  it('names the package for a module outside the repository, and calls a missing own module a collection error', () => {
    expect(
      run({ exitCode: 2, stdout: collection("E   ModuleNotFoundError: No module named 'requests.adapters'") }),
    ).toEqual({
      kind: 'MissingThirdPartyModule',
      message:
        "module 'requests.adapters' not found: the tests ran with the worker's Python; run the task with its repository's dependencies (--environment auto on taskloop run, environment: auto in a tasks file or taskloop.config.json; see taskloop env build), or install the package 'requests' in the worker's Python",
      details: { module: 'requests.adapters' },
    });
    // In a built environment the package belongs in the environment's set-up, not in the worker's Python.
    expect(
      run({
        exitCode: 2,
        stdout: collection("E   ModuleNotFoundError: No module named 'trio'"),
        environment: 'jinja-8db29d1edae61727',
      }),
    ).toEqual({
      kind: 'MissingThirdPartyModule',
      message:
        "add the package 'trio' to the task's environment set-up (module 'trio' not found in environment jinja-8db29d1edae61727)",
      details: { module: 'trio' },
    });
    expect(
      run({ exitCode: 2, stdout: collection("E   ModuleNotFoundError: No module named 'calc.extra'") }),
    ).toMatchObject({
      kind: 'CollectionError',
      message:
        "tests could not be collected: ModuleNotFoundError: No module named 'calc.extra': fix the import in the project's code or tests",
    });
    // Without the repository's modules nothing says the module is third-party: the change gets the blame.
    expect(
      run({
        exitCode: 2,
        ownModules: undefined,
        stdout: collection("E   ModuleNotFoundError: No module named 'requests'"),
      })?.kind,
    ).toBe('CollectionError');
  });

  it('names a missing environment variable from os.environ KeyErrors and from explicit messages', () => {
    const keyError = [
      '>       token = os.environ["API_TOKEN"]',
      '<frozen os>:679: in __getitem__',
      '    ???',
      "E   KeyError: 'API_TOKEN'",
    ].join('\n');
    expect(run({ stdout: keyError })).toEqual({
      kind: 'MissingEnvVar',
      message: "environment variable API_TOKEN is not set: set API_TOKEN in the task's testEnv",
      details: { variable: 'API_TOKEN' },
    });
    expect(run({ stdout: 'E   RuntimeError: environment variable DB_URL is not set' })?.details).toEqual({
      variable: 'DB_URL',
    });
    expect(run({ stdout: 'E   RuntimeError: the DB_URL environment variable is required' })?.details).toEqual({
      variable: 'DB_URL',
    });
    // A KeyError far from any os.environ is an ordinary failure.
    expect(
      run({
        stdout: "E   KeyError: 'name'\nFAILED tests/test_a.py::test_k - KeyError: 'name'",
        counts: { passed: 1, failed: 1, errors: 0 },
      })?.kind,
    ).toBe('TestsFailed');
  });

  it('reads connection refused with the address when the output shows it', () => {
    expect(
      run({
        stdout:
          "E   ConnectionRefusedError: [Errno 111] Connection refused\nsocket.create_connection(('127.0.0.1', 5432))",
      }),
    ).toMatchObject({
      kind: 'ConnectionRefused',
      details: { address: '127.0.0.1:5432' },
    });
    expect(
      run({ stdout: 'E   urllib.error.URLError: <urlopen error [Errno 111] Connection refused>' })?.message,
    ).toMatch(/^connection refused: a service the tests need is not running/);
  });

  it('points a syntax error at its file and line', () => {
    const stdout = collection(
      ['E     File "/w/calc.py", line 12', 'E       def add(a, b)', "E   SyntaxError: expected ':'"].join('\n'),
    );
    expect(run({ exitCode: 2, stdout })).toEqual({
      kind: 'CollectionError',
      message: "SyntaxError in /w/calc.py line 12: expected ':': fix the syntax there",
      details: { file: '/w/calc.py', line: 12 },
    });
  });

  it('reads pytest usage errors and empty selections, naming what to change in testCommand', () => {
    expect(run({ exitCode: 4, stderr: 'ERROR: file or directory not found: tests/nope.py\n' })).toEqual({
      kind: 'TestUsageError',
      message: 'check testCommand: path tests/nope.py not found',
      details: { path: 'tests/nope.py' },
    });
    expect(run({ exitCode: 4, stderr: 'pytest: error: unrecognized arguments: --bogus\n' })?.message).toBe(
      'check testCommand: unknown option --bogus',
    );
    expect(run({ exitCode: 4, stderr: 'ERROR: something else\n' })?.message).toBe(
      'pytest usage error (pytest exit 4): check testCommand and its paths (something else)',
    );
    expect(run({ exitCode: 5 })?.kind).toBe('NoTestsCollected');
    // An import error in conftest also exits 4, but it is the code's fault.
    expect(
      run({
        exitCode: 4,
        stderr:
          "ImportError while loading conftest '/w/tests/conftest.py'.\nE   ImportError: cannot import name 'x' from 'calc'",
      })?.kind,
    ).toBe('CollectionError');
  });

  it('counts failing tests, names the first and a missing fixture', () => {
    const stdout =
      "E       fixture 'db' not found\nERROR tests/test_a.py::test_db\nFAILED tests/test_a.py::test_b - assert 1 == 2";
    expect(run({ stdout, counts: { passed: 8, failed: 1, errors: 1 } })).toEqual({
      kind: 'TestsFailed',
      message:
        "2 of 10 tests failed (first: ERROR tests/test_a.py::test_db): fixture 'db' not found: define it (e.g. in conftest.py) or fix the test",
      details: { failing: 2, total: 10 },
    });
    expect(run({ exitCode: 3, stdout: 'INTERNALERROR>' })?.kind).toBe('Unknown');
    expect(run({ pytest: false, exitCode: 2 })?.message).toBe('tests failed (exit code 2): fix the code so they pass');
  });
});

describe('patternsOfTestRun', () => {
  const patternsOf = (facts: Partial<TestRunFacts>) => {
    const all = { ...ran, ...facts };
    return patternsOfTestRun(all, causeOfTestRun(all)).map((p) => p.type);
  };

  it('finds none in runs cut short or stopped by usage, even with failures on record', () => {
    expect(patternsOf({ outputTooLarge: true, stdout: 'xxxx', counts: { passed: 1, failed: 1, errors: 0 } })).toEqual(
      [],
    );
    expect(patternsOf({ exitCode: 4, stderr: 'ERROR: file or directory not found: t.py' })).toEqual([]);
    expect(patternsOf({ exitCode: 0, counts: { passed: 1, failed: 0, errors: 0 } })).toEqual([]);
  });

  it('reads the output of a run that wrote no JUnit report (an import error in conftest)', () => {
    const stderr =
      "ImportError while loading conftest '/w/tests/conftest.py'.\nE   ModuleNotFoundError: No module named 'calc.helpers'";
    expect(patternsOf({ exitCode: 4, stderr, counts: { passed: 0, failed: 0, errors: 0 } })).toEqual([
      'test_infra',
      'cross_dep',
    ]);
  });
});
