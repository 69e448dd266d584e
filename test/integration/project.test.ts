import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type WorkflowHandle,
  type WorkflowHandleWithFirstExecutionRunId,
} from '@temporalio/client';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectWorkflowId, type PlannedTask, type ProjectPlan } from '../../domain/project/plan.js';
import type { ProjectReport } from '../../domain/project/project-report.js';
import type { TaskRunState } from '../../domain/project/scheduling.js';
import { parseTaskSpec } from '../../domain/task-spec.js';
import { startTask } from '../../client/tasks/start-task.js';
import { resumeSignal, stateQuery } from '../../workflows/messages.js';
import {
  addTasksUpdate,
  cancelSignal,
  pauseSignal,
  projectStateQuery,
  retryTaskUpdate,
} from '../../workflows/project-messages.js';
import type { projectWorkflow } from '../../workflows/project.js';
import { ProjectKey, TaskIdKey } from '../../workflows/search-attributes.js';
import { calcFiles, fixTurns, wrongTurns, type ScriptTurn } from '../support/calc-project.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { gatedTest, releaseGate } from '../support/test-gate.js';
import { eventually, uniqueId, useTestTemporal } from './support/temporal.js';

interface TaskDef {
  id: string;
  dependsOn?: string[];
  /** Coder turns of this task's own script (default: one fix). */
  turns?: ScriptTurn[];
  /** How long a failed task stays open for a retry (default none). */
  retryWindowMs?: number;
}

type ProjectHandle = WorkflowHandle<typeof projectWorkflow>;

describe('the project workflow on a real server, with real task workflows on one shared repository', () => {
  const t = useTestTemporal('project');

  /** One calc repository for all tasks; each task fixes `add` on its own branch from its own script file. */
  async function planProject(
    defs: TaskDef[],
    concurrency: number,
    files: Record<string, string> = calcFiles,
  ): Promise<ProjectPlan & { planTask(def: TaskDef): Promise<PlannedTask> }> {
    const repo = await makeRepo(files);
    const dir = await makeTempDir();
    const project = uniqueId('p');
    const tasks: PlannedTask[] = [];
    for (const def of defs) tasks.push(await plannedTask(project, repo, dir, def));
    const feature = { id: 'f1', taskIds: defs.map((def) => def.id) };
    const planTask = (def: TaskDef) => plannedTask(project, repo, dir, def);
    return { project, repo, concurrency, milestones: [{ id: 'm1', features: [feature] }], tasks, planTask };
  }

  async function plannedTask(project: string, repo: string, dir: string, def: TaskDef): Promise<PlannedTask> {
    const scriptFile = path.join(dir, `${def.id}.json`);
    await writeFile(scriptFile, JSON.stringify({ coder: def.turns ?? fixTurns() }));
    const spec = parseTaskSpec({
      id: def.id,
      project,
      repo,
      goal: `Fix add in calc.py (${def.id})\nTask ${def.id}.`,
      maxRetries: 0,
      retryWindowMs: def.retryWindowMs ?? 0,
      models: { coder: `scripted:${scriptFile}` },
    });
    if (!spec.success) throw new Error(spec.error);
    return { spec: spec.data, milestone: 'm1', feature: 'f1', dependsOn: def.dependsOn ?? [] };
  }

  function startProject(
    plan: ProjectPlan,
    continueAsNewAfter?: number,
  ): Promise<WorkflowHandleWithFirstExecutionRunId<typeof projectWorkflow>> {
    return t.client.workflow.start<typeof projectWorkflow>('projectWorkflow', {
      taskQueue: t.host.taskQueue,
      workflowId: projectWorkflowId(plan.project),
      args: [{ plan: withoutHelpers(plan), ...(continueAsNewAfter === undefined ? {} : { continueAsNewAfter }) }],
    });
  }

  const withoutHelpers = ({ planTask: _planTask, ...plan }: ProjectPlan & { planTask?: unknown }): ProjectPlan => plan;

  function waitForTask(handle: ProjectHandle, id: string, states: TaskRunState[]) {
    return eventually(
      `task ${id} to be ${states.join(' or ')}`,
      async () => {
        const view = await handle.query(projectStateQuery);
        return states.includes(view.tasks.find((task) => task.id === id)!.state) ? view : undefined;
      },
      60_000,
    );
  }

  /** Lets a child paused by its paused project finish its run (the project itself stays paused). */
  async function letChildFinish(workflowId: string): Promise<void> {
    const child = t.client.workflow.getHandle(workflowId);
    const state = await eventually('the child to be paused or ended', () =>
      child.query(stateQuery).then(
        (s) => (s.paused || s.phase === 'done' ? s : undefined),
        () => undefined,
      ),
    );
    if (state.paused) await child.signal(resumeSignal);
  }

  const line = (report: ProjectReport, id: string) => report.tasks.find((task) => task.id === id)!;
  const ms = (iso?: string) => Date.parse(iso ?? 'invalid');

  /** The most tasks running at one instant, from the recorded [start, end) times. */
  function maxRunningAtOnce(report: ProjectReport): number {
    const ran = report.tasks.filter((task) => task.startedAt);
    return Math.max(
      ...ran.map(
        (task) =>
          ran.filter((other) => ms(other.startedAt) <= ms(task.startedAt) && ms(task.startedAt) < ms(other.endedAt))
            .length,
      ),
    );
  }

  async function updateRefusal(promise: Promise<unknown>): Promise<string> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
    return (error as WorkflowUpdateFailedError).cause?.message ?? '';
  }

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
    expect(paused.tasks[1]).toMatchObject({ id: 'b', state: 'PENDING' });
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
    expect(failed.tasks[0]).toMatchObject({ state: 'FAILED', attempt: 1, phase: 'done' });

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
