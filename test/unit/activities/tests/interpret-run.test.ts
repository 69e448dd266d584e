import { describe, expect, it } from 'vitest';
import { interpretRun, type RunFacts } from '../../../../activities/tests/interpret-run.js';
import { isPytestCommand, withPytestOptions } from '../../../../activities/tests/pytest-command.js';

const facts: RunFacts = {
  pytest: true,
  argv0: 'python',
  timeoutMs: 1000,
  exitCode: 0,
  timedOut: false,
  outputTooLarge: false,
  failingCases: 0,
  junitFound: true,
};

describe('interpretRun', () => {
  it('calls exit 0 with failing cases in the XML an error, saying they disagree', () => {
    const result = interpretRun({ ...facts, exitCode: 0, failingCases: 2 });
    expect(result.outcome).toBe('error');
    expect(result.reason).toContain('disagree');
  });

  it('calls exit 1 with no failing case in the XML an error, but trusts exit 1 when there is no XML', () => {
    expect(interpretRun({ ...facts, exitCode: 1 }).outcome).toBe('error');
    expect(interpretRun({ ...facts, exitCode: 1, junitFound: false })).toMatchObject({
      outcome: 'failed',
      cause: { kind: 'TestsFailed' },
    });
  });

  it('names internal and usage errors by their pytest exit codes', () => {
    expect(interpretRun({ ...facts, exitCode: 3 }).reason).toContain('pytest exit 3');
    expect(interpretRun({ ...facts, exitCode: 4 }).reason).toContain('pytest exit 4');
  });

  it('reports a command killed by a signal as an error', () => {
    expect(interpretRun({ ...facts, exitCode: null, signal: 'SIGKILL' })).toMatchObject({
      outcome: 'error',
      reason: 'test command was killed by signal SIGKILL',
    });
  });

  it('types the cause from the output and passes the repository modules on, with the patterns of the output', () => {
    const stdout =
      "E   ModuleNotFoundError: No module named 'calc.extra'\n!!! Interrupted: 1 error during collection !!!";
    const own = interpretRun({
      ...facts,
      exitCode: 2,
      failingCases: 1,
      counts: { passed: 0, failed: 0, errors: 1 },
      stdout,
      ownModules: ['calc'],
    });
    expect(own.cause).toMatchObject({ kind: 'CollectionError' });
    expect(own.patterns?.[0]).toMatchObject({ type: 'cross_dep', symbols: ['calc.extra'] });
    const thirdParty = interpretRun({
      ...facts,
      exitCode: 2,
      failingCases: 1,
      counts: { passed: 0, failed: 0, errors: 1 },
      stdout,
      ownModules: ['tests'],
    });
    expect(thirdParty.cause).toMatchObject({
      kind: 'MissingThirdPartyModule',
      message: "install the package 'calc' in the worker's Python (module 'calc.extra' not found)",
    });
    expect(thirdParty.patterns?.[0]).toMatchObject({ type: 'test_infra' });
  });

  it('gives a passing run neither cause nor patterns, and a timed-out run a cause but no patterns', () => {
    expect(interpretRun(facts)).toEqual({ outcome: 'passed' });
    expect(interpretRun({ ...facts, exitCode: null, timedOut: true, stdout: 'E   assert 1 == 2' })).toMatchObject({
      cause: { kind: 'TestTimeout' },
      patterns: [],
    });
  });
});

describe('isPytestCommand', () => {
  it('recognises pytest programs and python -m pytest, but not other commands', () => {
    expect(isPytestCommand(['pytest', '-q'])).toBe(true);
    expect(isPytestCommand(['.venv/bin/pytest'])).toBe(true);
    expect(isPytestCommand(['python', '-m', 'pytest'])).toBe(true);
    expect(isPytestCommand(['uv', 'run', 'pytest'])).toBe(true);
    expect(isPytestCommand(['python', '-m', 'unittest'])).toBe(false);
    expect(isPytestCommand(['make', 'test'])).toBe(false);
  });

  it('appends the JUnit path and disables the cache plugin', () => {
    expect(withPytestOptions(['pytest'], '/a/junit.xml')).toEqual([
      'pytest',
      '--junitxml=/a/junit.xml',
      '-p',
      'no:cacheprovider',
    ]);
  });
});
