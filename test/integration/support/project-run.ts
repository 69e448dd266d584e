// The project workflow's integration tests' helpers: a plan of calc tasks on one shared repository, its start, and
// waits and readings of its state and report.
import {
  WorkflowUpdateFailedError,
  type WorkflowHandle,
  type WorkflowHandleWithFirstExecutionRunId,
} from '@temporalio/client';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { projectWorkflowId, type PlannedTask, type ProjectPlan } from '../../../domain/project/plan.js';
import type { ProjectReport } from '../../../domain/project/project-report.js';
import type { TaskRunStatus } from '../../../domain/project/scheduling.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';
import { resumeSignal, stateQuery } from '../../../workflows/messages.js';
import { projectStateQuery } from '../../../workflows/project-messages.js';
import type { projectWorkflow } from '../../../workflows/project.js';
import { calcFiles, fixTurns, type ScriptTurn } from '../../support/calc-project.js';
import { makeRepo, makeTempDir } from '../../support/git-repo.js';
import { eventually, uniqueId, type TestTemporal } from './temporal.js';

export interface TaskDef {
  id: string;
  dependsOn?: string[];
  /** Coder turns of this task's own script (default: one fix). */
  turns?: ScriptTurn[];
  /** How long a failed task stays open for a retry (default none). */
  retryWindowMs?: number;
}

export type ProjectHandle = WorkflowHandle<typeof projectWorkflow>;

/** The helpers bound to one test file's Temporal client and worker. */
export function projectHelpers(t: TestTemporal) {
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

  function waitForTask(handle: ProjectHandle, id: string, states: TaskRunStatus[]) {
    return eventually(
      `task ${id} to be ${states.join(' or ')}`,
      async () => {
        const view = await handle.query(projectStateQuery);
        return states.includes(view.tasks.find((task) => task.id === id)!.status) ? view : undefined;
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

  return { planProject, startProject, waitForTask, letChildFinish, line, ms, maxRunningAtOnce, updateRefusal };
}
