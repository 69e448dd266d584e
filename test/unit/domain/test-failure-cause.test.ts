import { describe, expect, it } from 'vitest';
import { causeOfTestRun, type TestRunFacts } from '../../../domain/test-failure-cause.js';

const facts = (extra: Partial<TestRunFacts>): TestRunFacts => ({
  pytest: true,
  argv0: 'python',
  timeoutMs: 60_000,
  exitCode: 1,
  timedOut: false,
  outputTooLarge: false,
  failingCases: 1,
  output: '',
  ...extra,
});

describe('causeOfTestRun', () => {
  it('is undefined for a passing run', () => {
    expect(causeOfTestRun(facts({ exitCode: 0, failingCases: 0 }))).toBeUndefined();
  });

  it('names a missing test binary, a timeout and too much output', () => {
    expect(causeOfTestRun(facts({ spawnError: 'ENOENT', argv0: 'pytest-nope' }))).toMatchObject({ kind: 'TestCommandNotFound', message: expect.stringContaining('pytest-nope') });
    expect(causeOfTestRun(facts({ timedOut: true }))?.kind).toBe('TestTimeout');
    expect(causeOfTestRun(facts({ outputTooLarge: true }))?.kind).toBe('OutputTooLarge');
  });

  it('names a missing environment variable and how to pass it', () => {
    const output = "    token = os.environ['API_TOKEN']\nE   KeyError: 'API_TOKEN'\n";
    expect(causeOfTestRun(facts({ output }))).toMatchObject({ kind: 'MissingEnvVar', message: expect.stringContaining('--test-env API_TOKEN='), details: { variable: 'API_TOKEN' } });
  });

  it('reads pytest exit codes 2, 4 and 5, and calls other failures failing tests', () => {
    expect(causeOfTestRun(facts({ exitCode: 2 }))?.kind).toBe('CollectionError');
    expect(causeOfTestRun(facts({ exitCode: 4 }))?.kind).toBe('TestUsageError');
    expect(causeOfTestRun(facts({ exitCode: 5, failingCases: 0 }))?.kind).toBe('NoTestsCollected');
    expect(causeOfTestRun(facts({ output: 'E   assert 3 == 4' }))?.kind).toBe('TestsFailed');
    expect(causeOfTestRun(facts({ output: 'ConnectionRefusedError: [Errno 111] Connection refused' }))?.kind).toBe('ConnectionRefused');
  });
});
