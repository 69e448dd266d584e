// The project workflow on a real server: task order and concurrency, skips, tasks added, pause, retry, cancel, a
// held workflow id and continue-as-new (helpers in support/project-run.ts).
import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { startTask } from '../../client/tasks/start-task.js';
import { resumeSignal, stateQuery } from '../../workflows/messages.js';
import {
  addTasksUpdate,
  cancelSignal,
  pauseSignal,
  projectStateQuery,
  retryTaskUpdate,
} from '../../workflows/project-messages.js';
import { ProjectKey, TaskIdKey } from '../../workflows/search-attributes.js';
import { calcFiles, fixTurns, wrongTurns } from '../support/calc-project.js';
import { gatedTest, releaseGate } from '../support/test-gate.js';
import { projectHelpers } from './support/project-run.js';
import { eventually, useTestTemporal } from './support/temporal.js';

describe('the project workflow on a real server, with real task workflows on one shared repository', () => {
  const t = useTestTemporal('project');
  const { planProject, startProject, waitForTask, letChildFinish, line, ms, maxRunningAtOnce, updateRefusal } =
    projectHelpers(t);

  it('runs every task after its dependencies, never more than `concurrency` at once, and reports each', async () => {
    const plan = await planProject(
      [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c' }, { id: 'd' }, { id: 'e' }],
      2,
    );
    const report = await (await startProject(plan)).result();

    expect(report.tasks.map((task) => [task.id, task.status, task.attempts])).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((id) => [id, 'COMPLETED', 1]),
    );
    expect(ms(line(report, 'b').startedAt)).toBeGreaterThanOrEqual(ms(line(report, 'a').endedAt));
    expect(maxRunningAtOnce(report)).toBeLessThanOrEqual(2);
    expect(report).toMatchObject({
      status: 'COMPLETED',
      total: 5,
      passRateAtAttempt1: 1,
      passRate: 1,
      continuedAsNew: 0,
    });
    expect(report.spend).toMatchObject({ attempts: 5, childRuns: 5, modelRequests: 10 });
    expect(report.telemetry).toMatchObject({ patch_attempts: 5, patch_successes: 5, model_requests_per_task: 2 });

    const child = await t.client.workflow.getHandle(line(report, 'b').workflowId!).describe();
    expect(child.typedSearchAttributes.get(TaskIdKey)).toBe('b');
    expect(child.typedSearchAttributes.get(ProjectKey)).toBe(plan.project);
    expect(await child.staticSummary()).toBe('Fix add in calc.py (b)');
  });

  it('skips the dependants of a failed task, naming the dependency, and still runs the others', async () => {
    const plan = await planProject(
      [{ id: 'a', turns: wrongTurns() }, { id: 'b', dependsOn: ['a'] }, { id: 'c', dependsOn: ['b'] }, { id: 'd' }],
      2,
    );
    const report = await (await startProject(plan)).result();

    expect(line(report, 'a')).toMatchObject({ status: 'FAILED', attempts: 1, failureClass: expect.any(String) });
    expect(line(report, 'b')).toMatchObject({ status: 'SKIPPED', attempts: 0, reason: "dependency 'a' is FAILED" });
    expect(line(report, 'c')).toMatchObject({ status: 'SKIPPED', reason: "dependency 'b' is SKIPPED" });
    expect(line(report, 'd').status).toBe('COMPLETED');
    expect(report).toMatchObject({
      passRateAtAttempt1: 0.25,
      passRate: 0.25,
      counts: { COMPLETED: 1, FAILED: 1, SKIPPED: 2 },
    });
  });

  it('takes tasks added while it runs, refusing invalid ones with the reason, and runs them', async () => {
    const plan = await planProject([{ id: 'a' }], 1);
    const handle = await startProject(plan);
    // Paused, the project cannot end before the add arrives.
    await handle.signal(pauseSignal);
    const added = await plan.planTask({ id: 'b', dependsOn: ['a'] });

    expect(
      await updateRefusal(
        handle.executeUpdate(addTasksUpdate, { args: [{ tasks: [{ ...added, spec: { ...added.spec, id: 'a' } }] }] }),
      ),
    ).toContain("task 'a' is already in the project");
    expect(
      await updateRefusal(
        handle.executeUpdate(addTasksUpdate, { args: [{ tasks: [{ ...added, dependsOn: ['zz'] }] }] }),
      ),
    ).toContain("depends on 'zz'");
    expect(await handle.executeUpdate(addTasksUpdate, { args: [{ tasks: [added] }] })).toEqual({ added: ['b'] });
    expect((await handle.query(projectStateQuery)).tasks.map((task) => task.id)).toEqual(['a', 'b']);

    await handle.signal(resumeSignal);
    const report = await handle.result();
    expect(report.tasks.map((task) => [task.id, task.status])).toEqual([
      ['a', 'COMPLETED'],
      ['b', 'COMPLETED'],
    ]);
    expect(ms(line(report, 'b').startedAt)).toBeGreaterThanOrEqual(ms(line(report, 'a').endedAt));
  });

  it('starts no task while paused, even with a free slot and a ready task, and continues on resume', async () => {
    // Task a waits in its tests until the pause is in: it cannot end, and free the slot, before.
    const plan = await planProject([{ id: 'a' }, { id: 'b' }], 1, { ...calcFiles, ...gatedTest() });
    const handle = await startProject(plan);
    const view = await waitForTask(handle, 'a', ['RUNNING']);
    await handle.signal(pauseSignal);
    await releaseGate(plan.repo);
    await letChildFinish(view.tasks[0]!.workflowId);

    const paused = await waitForTask(handle, 'a', ['COMPLETED']);
    expect(paused.status).toBe('PAUSED');
    expect(paused.tasks[1]).toMatchObject({ id: 'b', status: 'PENDING' });
    await expect(t.client.workflow.getHandle(paused.tasks[1]!.workflowId).describe()).rejects.toBeInstanceOf(
      WorkflowNotFoundError,
    );

    await handle.signal(resumeSignal);
    const report = await handle.result();
    expect(line(report, 'b').status).toBe('COMPLETED');
    expect(ms(line(report, 'b').startedAt)).toBeGreaterThanOrEqual(ms(line(report, 'a').endedAt));
  });

  it('retries a failed task with a hint as a new run, and runs the dependants it had skipped', async () => {
    // Task a waits in its tests until the pause is in: the project cannot end (a failed, b skipped) before.
    const plan = await planProject(
      [
        { id: 'a', turns: [...wrongTurns(), ...fixTurns()] },
        { id: 'b', dependsOn: ['a'] },
      ],
      1,
      { ...calcFiles, ...gatedTest() },
    );
    const handle = await startProject(plan);
    const view = await waitForTask(handle, 'a', ['RUNNING']);
    await handle.signal(pauseSignal);
    await releaseGate(plan.repo);
    await letChildFinish(view.tasks[0]!.workflowId);
    const failed = await waitForTask(handle, 'b', ['SKIPPED']);
    expect(failed.tasks[0]).toMatchObject({ status: 'FAILED', attempt: 1, phase: 'done' });

    expect(await updateRefusal(handle.executeUpdate(retryTaskUpdate, { args: [{ taskId: 'b' }] }))).toContain(
      "retry 'a' instead",
    );
    expect(
      await handle.executeUpdate(retryTaskUpdate, { args: [{ taskId: 'a', hint: 'add, do not multiply' }] }),
    ).toEqual({ reset: ['a', 'b'] });
    await handle.signal(resumeSignal);
    const report = await handle.result();

    expect(report.tasks.map((task) => [task.id, task.status, task.attempts])).toEqual([
      ['a', 'COMPLETED', 2],
      ['b', 'COMPLETED', 1],
    ]);
    expect(report).toMatchObject({ passRateAtAttempt1: 0.5, passRate: 1, spend: { childRuns: 3, attempts: 3 } });
    const rerun = await t.client.workflow
      .getHandle<(input: unknown) => Promise<{ attempts: { hint?: string }[] }>>(line(report, 'a').workflowId!)
      .result();
    expect(rerun.attempts.map((attempt) => attempt.hint)).toEqual(['add, do not multiply']);
  });

  it('cancels: pending tasks are CANCELLED, the running one ends Canceled in Temporal, and the project ends CANCELLED', async () => {
    // Task a fails and then stays open in its retry window, so it is surely running when the cancel comes.
    const plan = await planProject(
      [
        { id: 'a', turns: wrongTurns(), retryWindowMs: 600_000 },
        { id: 'b', dependsOn: ['a'] },
      ],
      1,
    );
    const handle = await startProject(plan);
    const view = await waitForTask(handle, 'a', ['RUNNING']);
    const child = t.client.workflow.getHandle(view.tasks[0]!.workflowId);
    await eventually(
      'task a to wait in its retry window',
      () =>
        child.query(stateQuery).then(
          (s) => (s.retryWindowEndsAt ? s : undefined),
          () => undefined,
        ),
      60_000,
    );
    await handle.signal(cancelSignal, { reason: 'wrong goal' });
    const report = await handle.result();

    expect(report).toMatchObject({ status: 'CANCELLED', cancelReason: 'wrong goal' });
    expect(line(report, 'a')).toMatchObject({ status: 'CANCELLED', reason: expect.stringContaining('wrong goal') });
    expect((await child.describe()).status.name).toBe('CANCELLED');
    expect(line(report, 'b')).toMatchObject({ status: 'CANCELLED', reason: expect.stringContaining('wrong goal') });
  });

  it('reports a task whose workflow id another start already holds as FAILED, saying how to recover', async () => {
    const plan = await planProject([{ id: 'a' }, { id: 'b' }], 2);
    const { handle: standalone } = await startTask(t.client, plan.tasks[0]!.spec, { taskQueue: t.host.taskQueue });
    await standalone.result();
    const report = await (await startProject(plan)).result();

    expect(line(report, 'a')).toMatchObject({
      status: 'FAILED',
      attempts: 0,
      reason: expect.stringContaining('already exists and this project did not start it'),
    });
    expect(line(report, 'b').status).toBe('COMPLETED');
  });

  it('continues as new after the threshold of finished children and keeps every task record', async () => {
    const plan = await planProject([{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c' }, { id: 'd' }], 2);
    const handle = await startProject(plan, 2);
    const report = await handle.result();

    expect(report.continuedAsNew).toBeGreaterThanOrEqual(1);
    const first = await t.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    expect(report.tasks.map((task) => [task.id, task.status, task.attempts])).toEqual(
      ['a', 'b', 'c', 'd'].map((id) => [id, 'COMPLETED', 1]),
    );
    for (const task of report.tasks) expect(ms(task.endedAt)).toBeGreaterThanOrEqual(ms(task.startedAt));
    expect(ms(line(report, 'b').startedAt)).toBeGreaterThanOrEqual(ms(line(report, 'a').endedAt));
    expect(maxRunningAtOnce(report)).toBeLessThanOrEqual(2);
    expect(report.spend).toMatchObject({ childRuns: 4, modelRequests: 8 });
    const final = await handle.query(projectStateQuery);
    expect(final).toMatchObject({ status: 'COMPLETED', continuedAsNew: report.continuedAsNew });
  });
});
