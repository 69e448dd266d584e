import { execa } from 'execa';
import { worktreePathFor } from '../../activities/git/create-worktree.js';
import { pythonProcessesIn } from '../support/crash.js';
import { gatedTest, releaseGate } from '../support/test-gate.js';
import { describe, expect, inject, it } from 'vitest';
import { calcFiles, fixTurns, makeCalcProject, turn, wrongTurns } from '../support/calc-project.js';
import { activitiesIn } from '../support/history-activities.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { cancelSignal, pauseSignal, resumeSignal, retryUpdate, stateQuery } from '../../workflows/messages.js';
import { eventually, startTestWorkers, uniqueId, useTestTemporal } from './support/temporal.js';
import { git, readEvents, startTestTask, taskOutcome, taskSpec, waitForState, waitUntilIdle } from './support/tasks.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const slowTest = 'import time\n\n\ndef test_slow():\n    time.sleep(60)\n';

describe('controlling a running task', () => {
  const t = useTestTemporal('task-control');

  it('pauses before the next node, runs nothing more while paused, and completes after resume', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add', models: { coder: `scripted:${project.scriptFile}` } });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    await handle.signal(pauseSignal);

    const paused = await waitForState(handle, 'PAUSED', (state) => state.status === 'PAUSED');
    // Not a fixed sleep: wait until the workflow has nothing left to do by itself; one that went on past the pause
    // would have scheduled its tests before it got there.
    await waitUntilIdle(handle, 'the paused task with nothing pending');
    expect(activitiesIn((await handle.fetchHistory()).events ?? []).map((activity) => activity.type)).not.toContain(
      'runTests',
    );
    const still = await handle.query(stateQuery);
    expect(still.status).toBe('PAUSED');
    expect(still.phase).toBe(paused.phase);
    expect(still.attempts[0]?.test).toBeUndefined();
    const listed = await eventually('TaskStatus=PAUSED to be visible', async () => {
      for await (const execution of t.client.workflow.list({
        query: `WorkflowId = "${handle.workflowId}" AND TaskStatus = "PAUSED"`,
      }))
        return execution;
      return undefined;
    });
    expect(listed.workflowId).toBe(handle.workflowId);

    await handle.signal(resumeSignal);
    const outcome = await handle.result();
    expect(outcome.status).toBe('COMPLETED');
  });

  it('holds before the tests when the pause comes while the coder works, and runs them after the resume', async () => {
    // The coder's first turn runs the tests itself, and they wait at a gate: the coder activity runs until the test
    // releases it, so the pause surely lands while it works.
    const project = await makeCalcProject(
      { coder: [turn('run_tests', {}), ...fixTurns()] },
      { ...calcFiles, ...gatedTest() },
    );
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add', models: { coder: `scripted:${project.scriptFile}` } });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    await waitForState(handle, 'the coder', (state) => state.phase === 'code');
    await handle.signal(pauseSignal);
    await releaseGate(project.repo);

    const paused = await waitForState(handle, 'PAUSED', (state) => state.status === 'PAUSED');
    expect(paused.attempts[0]?.coder?.status).toBe('finished');
    expect(paused.attempts[0]?.test).toBeUndefined();
    await handle.signal(resumeSignal);
    const outcome = await handle.result();
    expect(outcome.status).toBe('COMPLETED');
    // The tests ran in their own activity, after the resume; no activity signalled the workflow.
    const history = (await handle.fetchHistory()).events ?? [];
    const types = activitiesIn(history).map(({ type }) => type);
    expect(types).toEqual(['claimWorktree', 'runCoder', 'runTests', 'reviewChanges', 'commitWorktree']);
    const signals = history.flatMap((event) => event.workflowExecutionSignaledEventAttributes?.signalName ?? []);
    expect(signals).toEqual(['pause', 'resume']);
  });

  it('cancels the running test node: CANCELLED, its pytest process gone within 2 s, worktree removed, no commit', async () => {
    // A test run of a minute: only the cancel can end it in time.
    const repo = await makeRepo({ ...calcFiles, 'tests/test_slow.py': slowTest });
    const dir = await makeTempDir();
    const scriptFile = path.join(dir, 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: fixTurns() }));
    const spec = taskSpec({ repo, goal: 'Fix add', models: { coder: `scripted:${scriptFile}` } });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    // The pytest process itself, found by its working folder (the attempt's worktree), not by its name.
    const worktree = worktreePathFor(t.host.workDir, handle.workflowId, 1);
    const pytests = () => pythonProcessesIn(worktree);
    const running = await eventually(
      'pytest running in the worktree',
      async () => {
        const found = await pytests();
        return found.some((row) => row.cmdline.includes('pytest')) ? found : undefined;
      },
      60_000,
    );
    expect(running.length).toBeGreaterThan(0);
    const sentAt = Date.now();
    await handle.signal(cancelSignal, { reason: 'not needed any more' });
    // The test sleeps 60 s: gone well before that, the cancel killed it (no bound on how fast: the machine may be busy).
    await eventually(
      'the pytest process gone after the cancel',
      async () => ((await pytests()).length === 0 ? true : undefined),
      30_000,
    );
    console.log(`cancel: the pytest process was gone ${Date.now() - sentAt} ms after the cancel signal was sent`);

    const outcome = await handle.result();
    expect(outcome.status).toBe('CANCELLED');
    expect(outcome.reason).toBe('not needed any more');
    expect(outcome.attempts[0]?.status).toBe('CANCELLED');
    expect((await git(repo, 'worktree', 'list')).trim().split('\n')).toHaveLength(1);
    expect(await git(repo, 'branch', '--list', 'taskloop/*')).toBe('');
    const types = (await readEvents(t.host.eventsFile))
      .filter((event) => event.workflowId === handle.workflowId)
      .map((event) => event.type);
    expect(types).toEqual(['TASK_CANCELLED']);
  });

  it('keeps a cancel sent before any worker picked the task up: CANCELLED, nothing run, no commit', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add', models: { coder: `scripted:${project.scriptFile}` } });
    const queue = uniqueId('cancel-early');
    const handle = await startTestTask(t.client, queue, spec);
    await handle.signal(cancelSignal, { reason: 'changed my mind' });
    const late = await startTestWorkers({ taskQueue: queue });
    try {
      const outcome = await handle.result();
      expect(outcome.status).toBe('CANCELLED');
      expect(outcome.attempts[0]?.coder).toBeUndefined();
      expect(await git(project.repo, 'branch', '--list', `taskloop/${spec.id}`)).toBe('');
    } finally {
      await late.stop();
    }
  });

  it('accepts a retry with a hint inside the retry window, and the next attempt sees the hint', async () => {
    const project = await makeCalcProject({ coder: [...wrongTurns(), ...fixTurns()] });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add',
      maxRetries: 0,
      retryWindowMs: 120_000,
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    await waitForState(
      handle,
      'FAILED in its retry window',
      (state) => state.status === 'FAILED' && state.retryWindowEndsAt !== undefined,
    );

    const accepted = await handle.executeUpdate(retryUpdate, { args: [{ hint: 'add must return a + b' }] });
    expect(accepted).toEqual({ attempt: 2 });
    const outcome = await handle.result();
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts[1]?.hint).toBe('add must return a + b');
    expect(outcome.attempts[1]?.coder?.transcript?.path).toBeTruthy();
  });

  it('refuses a retry with a reason when there is nothing to retry', async () => {
    const repo = await makeRepo({ ...calcFiles, 'tests/test_slow.py': slowTest });
    const dir = await makeTempDir();
    const scriptFile = path.join(dir, 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: fixTurns() }));
    const handle = await startTestTask(
      t.client,
      t.host.taskQueue,
      taskSpec({ repo, goal: 'Fix add', models: { coder: `scripted:${scriptFile}` } }),
    );
    await waitForState(handle, 'running', (state) => state.status === 'RUNNING');
    await expect(handle.executeUpdate(retryUpdate, { args: [{}] })).rejects.toMatchObject({
      cause: {
        message: expect.stringMatching(
          /is RUNNING: retry is accepted only while it waits for a hint or for a retry after failing/,
        ),
      },
    });
    await handle.signal(cancelSignal);
    expect((await handle.result()).status).toBe('CANCELLED');
  });

  it('answers the temporal CLI by name: signal pause, query state, and a list query finds a FAILED task as a Failed workflow', async () => {
    const cli = inject('temporalCli');
    const address = inject('temporalAddress');
    // A reviewer model puts the review and the commit in steps of their own after the tests, which wait at a gate
    // released only once the CLI's signal is in: the pause always holds the task before its review.
    const pass = { content: JSON.stringify({ verdict: 'pass' }) };
    const project = await makeCalcProject({ coder: fixTurns(), reviewer: [pass] }, { ...calcFiles, ...gatedTest() });
    const model = `scripted:${project.scriptFile}`;
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add', models: { coder: model, reviewer: model } });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    await execa(cli, [
      'workflow',
      'signal',
      '--address',
      address,
      '--workflow-id',
      handle.workflowId,
      '--name',
      'pause',
    ]);
    await releaseGate(project.repo);
    await waitForState(handle, 'PAUSED', (state) => state.status === 'PAUSED');
    const queried = await execa(cli, [
      'workflow',
      'query',
      '--address',
      address,
      '--workflow-id',
      handle.workflowId,
      '--type',
      'state',
      '--output',
      'json',
    ]);
    expect(JSON.parse(queried.stdout).queryResult[0]).toMatchObject({
      status: 'PAUSED',
      taskId: spec.id,
    });
    await execa(cli, [
      'workflow',
      'signal',
      '--address',
      address,
      '--workflow-id',
      handle.workflowId,
      '--name',
      'resume',
    ]);
    expect((await handle.result()).status).toBe('COMPLETED');

    const failing = await makeCalcProject({ coder: wrongTurns() });
    const failed = await startTestTask(
      t.client,
      t.host.taskQueue,
      taskSpec({
        repo: failing.repo,
        goal: 'Fix add',
        maxRetries: 0,
        models: { coder: `scripted:${failing.scriptFile}` },
      }),
    );
    expect((await taskOutcome(failed)).status).toBe('FAILED');
    const listed = await eventually('temporal workflow list to find the FAILED task', async () => {
      const { stdout } = await execa(cli, [
        'workflow',
        'list',
        '--address',
        address,
        '--query',
        `ExecutionStatus="Failed" AND TaskStatus="FAILED" AND Project="${spec.project}"`,
        '--output',
        'json',
      ]);
      const ids = (JSON.parse(stdout || '[]') as { execution: { workflowId: string } }[]).map(
        (row) => row.execution.workflowId,
      );
      return ids.includes(failed.workflowId) ? ids : undefined;
    });
    expect(listed).not.toContain(handle.workflowId);
  });
});
