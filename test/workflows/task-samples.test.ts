// Samples decided by tests (domain/samples.ts): an attempt draws candidates in turn, each in its own worktree, and
// keeps the first whose tests pass; a loser is set aside with what it spent, and the task's budget counts it.
import { describe, expect, it } from 'vitest';
import { useStubServer, type StubRun } from './support/environment.js';
import { asDefault, coderFinished, testsFailedWith, testsRefused, type StubScript } from './support/stubs.js';
import { outcomeOf, startStubTask, stubSpec } from './support/tasks.js';

const testsFail = testsFailedWith({ kind: 'TestsFailed', message: 'tests failed: test_sub expected 1 got 2' });

describe('samples decided by tests', () => {
  const server = useStubServer();

  it('draws a second candidate in a fresh worktree when the first fails its tests, and commits the second', async () => {
    let details = '';
    let current: StubRun | undefined;
    const script: StubScript = {
      test: [testsFail, asDefault],
      code: [
        asDefault,
        async (input) => {
          // The Web UI's first line names the candidate its phase belongs to.
          const handle = current!.client.workflow.getHandle(input.workflowId);
          const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
          details = metadata.currentDetails?.split('\n')[0] ?? '';
          return coderFinished;
        },
      ],
    };
    await server.withStubs(script, async (run) => {
      current = run;
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { samples: 3, maxRetries: 0 })));
      expect(outcome.status).toBe('COMPLETED');
      // One attempt: the losing candidate is inside it, not a retry.
      expect(outcome.attempts).toHaveLength(1);
      const [attempt] = outcome.attempts;
      expect(attempt?.candidate).toBe(2);
      expect(attempt?.candidates?.map((c) => [c.candidate, c.failure.node, c.test?.outcome])).toEqual([
        [1, 'test', 'failed'],
      ]);
      // Each candidate claimed and removed its own worktree; the second's activities carry its number.
      const { claim, code, test, commit } = run.stubs.calls;
      expect(claim.map((input) => input.candidate)).toEqual([undefined, 2]);
      expect(code.map((input) => [input.attempt, input.candidate])).toEqual([
        [1, undefined],
        [1, 2],
      ]);
      expect(test.map((input) => input.worktreePath)).toEqual([
        expect.stringMatching(/\/1$/),
        expect.stringMatching(/\/1c2$/),
      ]);
      expect(commit[0]?.worktreePath).toMatch(/\/1c2$/);
      expect(run.stubs.calls.removals).toBe(2);
      // Candidates are independent draws: the second is told nothing of the first.
      expect(code[1]?.previousAttempts).toEqual([]);
      // Both coder runs are priced: 2 requests, 300 tokens (each stub run spends 1 request, 100 + 50 tokens).
      expect(outcome.budget?.spent.modelCalls).toBe(2);
      expect(outcome.budget?.spent.inputTokens).toBe(200);
      expect(outcome.budget?.spent.outputTokens).toBe(100);
      expect(outcome.telemetry.model_requests_per_task).toBe(2);
      const testFailed = run.stubs.calls.events.filter((event) => event.type === 'TEST_FAILED');
      expect(testFailed.map((event) => event.data.candidate)).toEqual([undefined]);
      expect(details).toBe('**RUNNING**: phase `code`, attempt 1, candidate 2');
    });
  });

  it('stops at the task’s samples: when every candidate fails, the attempt fails as one and the next attempt retries', async () => {
    await server.withStubs({ test: [testsFail, testsFail, asDefault] }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { samples: 2, maxRetries: 1 })));
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'PASSED']);
      expect(outcome.attempts[0]?.candidates).toHaveLength(1);
      expect(outcome.attempts[0]?.failure?.node).toBe('test');
      // The retry carries the attempt's evidence, as any retry does; its first candidate is the attempt's own.
      const { code } = run.stubs.calls;
      expect(code.map((input) => [input.attempt, input.candidate, input.previousAttempts.length])).toEqual([
        [1, undefined, 0],
        [1, 2, 0],
        [2, undefined, 1],
      ]);
      const testFailed = run.stubs.calls.events.filter((event) => event.type === 'TEST_FAILED');
      expect(testFailed.map((event) => [event.attempt, event.data.candidate])).toEqual([
        [1, undefined],
        [1, 2],
      ]);
    });
  });

  it('a coder run that ends without finishing is set aside too; a change the path rules refuse is as well', async () => {
    const stepLimit = { ...coderFinished, status: 'max_steps' as const, reason: 'step limit reached' };
    const refused = testsRefused([{ rule: 'test_file_edited', message: 'tests/test_calc.py was edited' }]);
    const script: StubScript = { code: [stepLimit, asDefault], test: [refused, asDefault] };
    await server.withStubs(script, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { samples: 3, maxRetries: 0 })));
      expect([outcome.status, outcome.reason]).toEqual(['COMPLETED', undefined]);
      expect(outcome.attempts[0]?.candidates?.map((c) => c.failure.node)).toEqual(['code', 'test']);
      expect(run.stubs.calls.code.map((input) => input.candidate)).toEqual([undefined, 2, 3]);
    });
  });

  it('a candidate whose tests passed is kept: a review that rejects it draws no other', async () => {
    const rejected = {
      passed: false,
      findings: [{ rule: 'model_review', message: 'the change hides the bug' }],
      changedFiles: ['calc.py'],
      diffStat: { files: 1, insertions: 1, deletions: 1 },
    };
    await server.withStubs({ review: rejected }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { samples: 3, maxRetries: 0 })));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.attempts[0]?.candidates).toBeUndefined();
      expect(run.stubs.calls.code).toHaveLength(1);
    });
  });

  it('without samples, nothing changes: one coder run an attempt, no candidate fields', async () => {
    await server.withStubs({ test: [testsFail, asDefault] }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { maxRetries: 1 })));
      expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'PASSED']);
      expect(
        outcome.attempts.every((attempt) => attempt.candidates === undefined && attempt.candidate === undefined),
      ).toBe(true);
      expect(run.stubs.calls.claim.every((input) => !('candidate' in input))).toBe(true);
    });
  });
});
