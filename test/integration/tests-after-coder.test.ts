import type { WorkflowHandle } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { testsAfterCoder, type TestsAfterCoderInput } from '../../activities/tests-after-coder.js';
import type { TestInput } from '../../activities/index.js';
import type { CoderResult } from '../../domain/records.js';
import { emptyTelemetry } from '../../domain/telemetry.js';
import { cancelSignal } from '../../workflows/messages.js';
import { calcFiles, fixTurns, makeCalcProject, turn } from '../support/calc-project.js';
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

  it('runs it for a running task and announces it; leaves it to the workflow when it fails to run; rethrows a cancellation', async () => {
    // A real task held in its coder (its first turn runs a two-second test): TaskStatus RUNNING, no workflow task pending.
    const project = await makeCalcProject(
      { coder: [turn('run_tests', {}), ...fixTurns()] },
      {
        ...calcFiles,
        'tests/test_wait.py': 'import time\n\n\ndef test_wait():\n    time.sleep(2)\n',
      },
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
    const call = (run: Partial<TestsAfterCoderInput>) =>
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

    // Run: the test node's input is the workflow's with the attempt's worktree and the commit message from the summary.
    const result = { outcome: 'passed' } as never;
    expect(await call({ runTestNode: async (test) => (seen.push(test), result) })).toBe(result);
    expect(seen).toEqual([
      expect.objectContaining({
        workflowId: handle.workflowId,
        attempt: 1,
        worktreePath: '/the/worktree',
        command: ['python', '-m', 'pytest'],
        commit: { branch: 'taskloop/x', message: 'Fix add\n\nfixed add', acceptanceTests: [], repoPath: project.repo },
      }),
    ]);
    // It announced itself: the workflow shows the test phase (here although its own coder still works).
    await waitForState(handle, 'the announced test phase', (state) => state.phase === 'test');
    await settled(handle);

    // A failure to run goes back as "not tested": the test activity runs it with its own retries.
    expect(await call({ runTestNode: (test) => (seen.push(test), Promise.reject(new Error('no sandbox here'))) })).toBe(
      undefined,
    );
    expect(seen).toHaveLength(2);
    await settled(handle);
    // A cancellation of the activity is not swallowed.
    const cancelled = new AbortController();
    cancelled.abort(new CancelledFailure('cancelled'));
    await expect(
      call({ runTestNode: () => Promise.reject(new CancelledFailure('cancelled')), signal: cancelled.signal }),
    ).rejects.toThrow('cancelled');

    await handle.signal(cancelSignal, { reason: 'done with it' });
    await handle.result().catch(() => undefined);
  });
});
