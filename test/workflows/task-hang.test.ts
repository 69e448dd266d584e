// A test run that hangs past its timeout is re-run once; hanging again is the code's fault: a new attempt told why,
// not re-runs up to the environment retry limit (a ptrace hang cost four timeouts, then FAILED as an environment
// problem).
import { describe, expect, it } from 'vitest';
import { useStubServer } from './support/environment.js';
import { asDefault, testsFailedWith } from './support/stubs.js';
import { outcomeOf, startStubTask, stubSpec } from './support/tasks.js';

const timeout = testsFailedWith({
  kind: 'TestTimeout',
  message: 'tests did not finish within 3000 ms: a test hangs or waits for something',
});

describe('a test node that hangs', () => {
  const server = useStubServer();

  it('is re-run once, then fails its attempt as a code defect; the next attempt gets the same, then the task fails', async () => {
    await server.withStubs({ test: timeout }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { envRetryLimit: 3, maxRetries: 1 })));

      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('code_defect');
      expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'FAILED']);
      expect(outcome.attempts.map((attempt) => attempt.envRetries)).toEqual([1, 1]);
      expect(outcome.attempts[0]?.failure).toMatchObject({
        failureClass: 'code_defect',
        cause: { kind: 'TestTimeout' },
      });
      expect(outcome.attempts[0]?.failure?.reason).toContain('timed out in each of 2 runs: the code hangs');
      expect(run.stubs.calls.test).toHaveLength(4);
      expect(run.stubs.calls.code).toHaveLength(2);
    });
  });

  it('passes when the re-run finishes in time (a slow machine, not a hang)', async () => {
    await server.withStubs({ test: [timeout, asDefault] }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { envRetryLimit: 3 })));
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts[0]?.envRetries).toBe(1);
    });
  });
});
