// The task's limits and waits: a hint it waits for, the retry window (expiring, or a retry arriving in it), retries,
// node reruns and budgets running out, and a lost host (its steps never picked up) moving the attempt elsewhere.
import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../domain/events.js';
import { retryUpdate, stateQuery } from '../../workflows/messages.js';
import { activitiesIn } from '../support/history-activities.js';
import { useStubServer, type StubRun } from './support/environment.js';
import {
  asDefault,
  coderFinished,
  judgeModelPasses,
  judgeModelRejects,
  testsFailedWith,
  type StubScript,
} from './support/stubs.js';
import { outcomeOf, startStubTask, stubSpec, waitForState } from './support/tasks.js';

const eventTypes = (run: StubRun) => run.stubs.calls.events.map((event: TaskEvent) => event.type);

const testsFail = testsFailedWith({ kind: 'TestsFailed', message: 'tests failed: test_sub expected 1 got 2' });
const missingEnv = testsFailedWith({ kind: 'MissingEnvVar', message: 'KeyError: CALC_MODE: set it in testEnv' });
const refused = testsFailedWith({ kind: 'ConnectionRefused', message: 'connection refused: localhost:5432' });

describe('hints, retry windows, limits and lost hosts', () => {
  const server = useStubServer();

  it('an ambiguous goal waits for a hint, and the next attempt gets it', async () => {
    const ambiguous = { rule: 'model_judge', message: 'the goal is ambiguous: round half up or half even?' };
    const script: StubScript = {
      judge: [judgeModelRejects([ambiguous]), judgeModelPasses],
    };
    await server.withStubs(script, async (run) => {
      const spec = stubSpec(run, { models: { coder: 'scripted:coder.json', judge: 'scripted:judge.json' } });
      const handle = await startStubTask(run, spec);
      await waitForState(handle, 'waiting for a hint', (state) => state.status === 'WAITING_FOR_HINT');
      await handle.executeUpdate(retryUpdate, { args: [{ hint: 'round half up' }] });
      const outcome = await outcomeOf(handle);
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['NEEDS_HINT', 'PASSED']);
      expect(outcome.attempts[0]?.failure?.failureClass).toBe('intent_ambiguity');
      expect(run.stubs.calls.code[1]?.hint).toBe('round half up');
    });
  });

  it('a retry is refused while the task runs', async () => {
    const script: StubScript = {
      test: async (input) => {
        const handle = current!.client.workflow.getHandle(input.workflowId);
        refusal = await handle.executeUpdate(retryUpdate, { args: [{}] }).catch((error: Error) => error);
        return current!.stubs.runDefault('test', input);
      },
    };
    let current: StubRun | undefined;
    let refusal: unknown;
    await server.withStubs(script, async (run) => {
      current = run;
      expect((await outcomeOf(await startStubTask(run))).status).toBe('COMPLETED');
      expect(String((refusal as Error).cause ?? refusal)).toMatch(/retry is accepted only while it waits for a hint/);
    });
  });

  it('a failed task waits out its retry window, then ends FAILED', async () => {
    await server.withStubs({ test: missingEnv }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { retryWindowMs: 3_600_000 })));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('environment_problem');
      expect(outcome.reason).toContain('CALC_MODE');
      expect(eventTypes(run)).toContain('TASK_RETRY_EXHAUSTED');
    });
  });

  it('a retry with a hint within the retry window starts a new attempt', async () => {
    await server.withStubs({ test: [missingEnv, asDefault] }, async (run) => {
      const handle = await startStubTask(run, stubSpec(run, { retryWindowMs: 3_600_000 }));
      const failed = await waitForState(handle, 'in its retry window', (state) => !!state.retryWindowEndsAt);
      expect(failed.status).toBe('FAILED');
      await handle.executeUpdate(retryUpdate, { args: [{ hint: 'CALC_MODE is set now' }] });
      const outcome = await outcomeOf(handle);
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts).toHaveLength(2);
      expect(run.stubs.calls.code[1]?.hint).toBe('CALC_MODE is set now');
    });
  });

  it('failing tests use up the retries, then the task fails as a code defect', async () => {
    await server.withStubs({ test: testsFail }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { maxRetries: 1 })));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('code_defect');
      expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'FAILED']);
      expect(eventTypes(run).filter((type) => type === 'TEST_FAILED')).toHaveLength(2);
      expect(run.stubs.calls.commit).toHaveLength(0);
    });
  });

  it("the task's events reach the worker's event sink once each, in order, with no local activity of their own", async () => {
    await server.withStubs({ test: testsFail }, async (run) => {
      const handle = await startStubTask(run, stubSpec(run, { maxRetries: 1 }));
      await outcomeOf(handle);
      const state = await handle.query(stateQuery);
      expect(run.stubs.calls.events.map((event: TaskEvent) => event.id)).toEqual(state.events.map((event) => event.id));
      expect(eventTypes(run).at(-1)).toBe('TASK_RETRY_EXHAUSTED');
      const history = (await handle.fetchHistory()).events ?? [];
      const patches = history.filter((event) => event.markerRecordedEventAttributes?.markerName === 'core_patch');
      // The patch markers, the path's, the repeated timeout's and the decisions', first in the first workflow task: no
      // `patched()` waits on a local activity's result (workflows/task/task-run.ts, TASK_PATH_PATCH).
      const patchIds = patches.map((patch) => {
        const data = patch.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
        return (JSON.parse(Buffer.from(data ?? '').toString()) as { id: string }).id;
      });
      expect(patchIds).toEqual([
        'task-path-decided-at-start',
        'repeated-test-timeout-is-code',
        'decisions-in-workflow',
      ]);
      // All among the first workflow task's commands (events 5 on, before the next workflow task is scheduled).
      const nextTask = history.find((event) => Number(event.eventId) > 4 && event.workflowTaskScheduledEventAttributes);
      expect(Number(patches[0]?.eventId)).toBe(5);
      expect(Number(patches.at(-1)?.eventId)).toBeLessThan(Number(nextTask?.eventId));
      // The local activities: each attempt's claim, and the report of its failure to the learning workflow; no events' one.
      const local = activitiesIn(history).filter((activity) => activity.local);
      expect(local.map((activity) => activity.type)).toEqual([
        'claimWorktree',
        'reportFailure',
        'claimWorktree',
        'reportFailure',
      ]);
    });
  });

  it('an environment problem reruns the node up to its limit, without a coder attempt', async () => {
    await server.withStubs({ test: refused }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { envRetryLimit: 2 })));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('environment_problem');
      expect(outcome.attempts).toHaveLength(1);
      expect(outcome.attempts[0]?.envRetries).toBe(2);
      expect(run.stubs.calls.test).toHaveLength(3);
      expect(run.stubs.calls.code).toHaveLength(1);
    });
  });

  it('a spent model-call budget fails the task before the next coder call', async () => {
    const twoCalls = { ...coderFinished, telemetry: { ...coderFinished.telemetry, modelRequests: 2 } };
    await server.withStubs({ code: twoCalls, test: testsFail }, async (run) => {
      const spec = stubSpec(run, { budgets: { maxModelCalls: 2 } });
      const outcome = await outcomeOf(await startStubTask(run, spec));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('budget_exhausted');
      expect(outcome.attempts.at(-1)?.failure?.cause?.kind).toBe('BudgetExhausted');
      expect(run.stubs.calls.code).toHaveLength(1);
    });
  });

  it('a host that never picks up its steps is lost: the attempt moves to a live host', async () => {
    let goneQueue = '';
    const script: StubScript = {
      claim: [
        async (input) => ({ ...(await current!.stubs.runDefault('claim', input)), hostQueue: goneQueue }),
        asDefault,
      ],
    };
    let current: StubRun | undefined;
    await server.withStubs(script, async (run) => {
      current = run;
      goneQueue = `${run.hostQueue}-gone`;
      // The test server skips no time while a task waits on a queue nobody polls: this waits the least allowed, 5 s.
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { hostLostAfterMs: 5_000 })));
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['HOST_LOST', 'PASSED']);
      expect(outcome.attempts[0]?.failure?.cause?.kind).toBe('HostLost');
      expect(run.stubs.calls.code).toHaveLength(1);
      // The lost host cannot remove its worktree: only the live host's is removed.
      expect(run.stubs.calls.removals).toBe(1);
    });
  });
});
