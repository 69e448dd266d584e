import type { WorkflowHandle } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { testsAfterCoder, type TestsAfterCoderInput } from '../../activities/tests-after-coder.js';
import type { TestInput } from '../../activities/index.js';
import type { TestedWithCoder } from '../../activities/task-activity-types.js';
import type { CoderResult } from '../../domain/records.js';
import { emptyTelemetry } from '../../domain/telemetry.js';
import { cancelSignal, pauseSignal } from '../../workflows/messages.js';
import { TestsHeld } from '../../activities/tests/index.js';
import { calcFiles, fixTurns, makeCalcProject, turn } from '../support/calc-project.js';
import { gatedTest } from '../support/test-gate.js';
import { eventually, useTestTemporal } from './support/temporal.js';
import { startTestTask, taskSpec, waitForState } from './support/tasks.js';

const finished: CoderResult = {
  status: 'finished',
  summary: 'fixed add',
  changedFiles: ['calc.py'],
  telemetry: emptyTelemetry(),
  turnsConsumed: 2,
};

/** Waits until the workflow has run every workflow task (the announcements above each start one). */
async function settled(handle: WorkflowHandle): Promise<void> {
  await eventually('no pending workflow task', async () =>
    (await handle.describe()).raw.pendingWorkflowTask ? undefined : true,
  );
}

describe('the test node run by the coder activity (tests-after-coder)', () => {
  const t = useTestTemporal('tests-after-coder');

  it('runs it for a running task, announcing a run that lasts; leaves it to the workflow when held or failing to run; rethrows a cancellation', async () => {
    // A real task held in its coder until the end (its first turn runs a test that waits at a gate never released;
    // the cancel at the end stops it): TaskStatus RUNNING, no workflow task pending.
    const project = await makeCalcProject(
      { coder: [turn('run_tests', {}), ...fixTurns()] },
      { ...calcFiles, ...gatedTest() },
    );
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add', models: { coder: `scripted:${project.scriptFile}` } });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    await waitForState(handle, 'the coder', (state) => state.phase === 'code');

    const env = new MockActivityEnvironment({ taskQueue: t.host.taskQueue }, { client: t.client });
    const seen: TestInput[] = [];
    const input: TestsAfterCoderInput['input'] = {
      workflowId: handle.workflowId,
      attempt: 1,
      worktreePath: '/the/worktree',
      goal: 'Fix add\n\nin calc.py',
      thenTests: {
        command: ['python', '-m', 'pytest'],
        testEnv: {},
        timeoutMs: 60_000,
        secretEnvNames: [],
        commit: { branch: 'taskloop/x', acceptanceTests: [], repoPath: project.repo },
      },
    };
    const call = (run: Partial<TestsAfterCoderInput>): Promise<TestedWithCoder | undefined> =>
      env.run(testsAfterCoder, {
        coder: finished,
        input,
        client: t.client,
        runTestNode: async () => ({}) as never,
        ...run,
      });

    // Not finished, or not asked: nothing runs.
    const never = async (test: TestInput) => (seen.push(test), {}) as never;
    expect(await call({ coder: { ...finished, status: 'max_steps' }, runTestNode: never })).toBeUndefined();
    expect(await call({ input: { ...input, thenTests: undefined }, runTestNode: never })).toBeUndefined();
    expect(seen).toEqual([]);

    const announcements = async () =>
      ((await handle.fetchHistory()).events ?? []).flatMap((event) => {
        const signal = event.workflowExecutionSignaledEventAttributes;
        return signal?.signalName === 'testsStarted' ? [signal] : [];
      }).length;

    // A short run: its result and start time, the test node's input being the workflow's with the attempt's worktree
    // and the commit message from the summary; not announced (the workflow records the phase from the start time).
    const result = { outcome: 'passed' } as never;
    const before = Date.now();
    const short = await call({ runTestNode: async (test) => (seen.push(test), result) });
    expect(short).toEqual({ tested: result, testsStartedAt: expect.any(Number) });
    expect(short?.testsStartedAt).toBeGreaterThanOrEqual(before);
    expect(seen).toEqual([
      expect.objectContaining({
        workflowId: handle.workflowId,
        attempt: 1,
        worktreePath: '/the/worktree',
        command: ['python', '-m', 'pytest'],
        commit: { branch: 'taskloop/x', message: 'Fix add\n\nfixed add', acceptanceTests: [], repoPath: project.repo },
      }),
    ]);
    expect(await announcements()).toBe(0);

    // A run that lasts is announced once it has run a while: the workflow shows the test phase (here although its own
    // coder still works). The run lasts until the announcement is in the history, however slow the status read before
    // it; an announcement that never comes fails the run, and the call returns no result.
    const slow = async (test: TestInput, mayStart: Promise<boolean>) => {
      seen.push(test);
      if (!(await mayStart)) throw new TestsHeld();
      await eventually('the announcement of a run that lasts', async () =>
        (await announcements()) > 0 ? true : undefined,
      );
      return result;
    };
    expect(await call({ runTestNode: slow, announceAfterMs: 100 })).toMatchObject({ tested: result });
    expect(await announcements()).toBe(1);
    await waitForState(handle, 'the announced test phase', (state) => state.phase === 'test');
    await settled(handle);

    // A failure to run goes back as "not tested": the test activity runs it with its own retries.
    expect(await call({ runTestNode: (test) => (seen.push(test), Promise.reject(new Error('no sandbox here'))) })).toBe(
      undefined,
    );
    expect(seen).toHaveLength(3);
    // A cancellation of the activity is not swallowed.
    const cancelled = new AbortController();
    cancelled.abort(new CancelledFailure('cancelled'));
    await expect(
      call({ runTestNode: () => Promise.reject(new CancelledFailure('cancelled')), signal: cancelled.signal }),
    ).rejects.toThrow('cancelled');

    // A pause requested: the workflow must decide, so the test node is held before it starts and nothing is announced.
    await handle.signal(pauseSignal);
    await waitForState(handle, 'the pause request', (state) => state.status === 'PAUSE_REQUESTED');
    await settled(handle);
    const honest = async (test: TestInput, mayStart: Promise<boolean>) => {
      seen.push(test);
      if (!(await mayStart)) throw new TestsHeld();
      await new Promise((resolve) => setTimeout(resolve, 500));
      return result;
    };
    expect(await call({ runTestNode: honest, announceAfterMs: 100 })).toBeUndefined();
    expect(seen).toHaveLength(4);
    expect(await announcements()).toBe(1);

    await handle.signal(cancelSignal, { reason: 'done with it' });
    await handle.result().catch(() => undefined);
  });
});
