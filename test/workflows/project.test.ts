// The project workflow on stub activities: the DAG runs each task after its dependencies within the concurrency
// limit, a failed task's dependants are skipped (naming it) while the others run, and pause and cancel hold or end it.
import { describe, expect, it } from 'vitest';
import { projectWorkflowId, type PlannedTask, type ProjectPlan } from '../../domain/project/plan.js';
import { createProjectState, type CarriedProjectState } from '../../domain/project/project-state.js';
import { cancelSignal, pauseSignal, projectStateQuery, resumeSignal } from '../../workflows/project-messages.js';
import type { projectWorkflow } from '../../workflows/project.js';
import { stateQuery } from '../../workflows/messages.js';
import { useStubServer, type StubRun } from './support/environment.js';
import { coderFinished, testsFailedWith, testsPassed, type StubScript } from './support/stubs.js';
import { stubSpec } from './support/tasks.js';

/** The task id a workflow id of this test's project names (`task-<project>-<id>`). */
const taskOf = (run: StubRun, workflowId: string) => workflowId.slice(`task-${run.project}-`.length);

function plan(run: StubRun, tasks: { id: string; dependsOn?: string[] }[], concurrency: number): ProjectPlan {
  const planned: PlannedTask[] = tasks.map((task) => ({
    spec: stubSpec(run, { id: task.id, maxRetries: 0 }),
    milestone: 'm1',
    feature: 'f1',
    dependsOn: task.dependsOn ?? [],
  }));
  return {
    project: run.project,
    repo: '/nowhere/repo',
    concurrency,
    milestones: [{ id: 'm1', features: [{ id: 'f1', taskIds: tasks.map((task) => task.id) }] }],
    tasks: planned,
  };
}

const startProject = (run: StubRun, projectPlan: ProjectPlan) =>
  run.client.workflow.start<typeof projectWorkflow>('projectWorkflow', {
    taskQueue: run.taskQueue,
    workflowId: projectWorkflowId(projectPlan.project),
    args: [{ plan: projectPlan }],
  });

const states = (report: { tasks: { id: string; status: string }[] }) =>
  Object.fromEntries(report.tasks.map((task) => [task.id, task.status]));

describe('the project workflow', () => {
  const server = useStubServer();

  it('runs each task after its dependencies, never more than `concurrency` at once', async () => {
    const order: string[] = [];
    let running = 0;
    let most = 0;
    let current: StubRun | undefined;
    const script: StubScript = {
      code: async (input) => {
        running += 1;
        most = Math.max(most, running);
        const task = taskOf(current!, input.workflowId);
        order.push(task);
        // b and c, ready together, wait for each other (for 2 s at most), so they surely overlap.
        for (let waited = 0; running < 2 && waited < 2000 && task !== 'a' && task !== 'd'; waited += 20)
          await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
        return coderFinished;
      },
    };
    await server.withStubs(script, async (run) => {
      current = run;
      const tasks = [
        { id: 'a' },
        { id: 'b', dependsOn: ['a'] },
        { id: 'c', dependsOn: ['a'] },
        { id: 'd', dependsOn: ['b', 'c'] },
      ];
      const report = await (await startProject(run, plan(run, tasks, 2))).result();
      expect(states(report)).toEqual({ a: 'COMPLETED', b: 'COMPLETED', c: 'COMPLETED', d: 'COMPLETED' });
      expect(order[0]).toBe('a');
      expect(new Set(order.slice(1, 3))).toEqual(new Set(['b', 'c']));
      expect(order[3]).toBe('d');
      expect(most).toBe(2);
    });
  });

  it('skips the dependants of a failed task, naming it, and still runs the others', async () => {
    let current: StubRun | undefined;
    const missingEnv = testsFailedWith({ kind: 'MissingEnvVar', message: 'KeyError: CALC_MODE' });
    const script: StubScript = {
      test: (input) => (taskOf(current!, input.workflowId) === 'a' ? missingEnv : testsPassed),
    };
    await server.withStubs(script, async (run) => {
      current = run;
      const tasks = [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c' }, { id: 'd', dependsOn: ['b'] }];
      const report = await (await startProject(run, plan(run, tasks, 2))).result();
      expect(states(report)).toEqual({ a: 'FAILED', b: 'SKIPPED', c: 'COMPLETED', d: 'SKIPPED' });
      expect(report.tasks.find((task) => task.id === 'b')?.reason).toContain("'a'");
      expect(run.stubs.calls.claim.map((call) => call.taskId).sort()).toEqual(['a', 'c']);
    });
  });

  it('goes on from a state a worker of 0.1 carried through continue-as-new, whose records say `state`', async () => {
    await server.withStubs({}, async (run) => {
      const projectPlan = plan(run, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }], 1);
      const current = createProjectState(projectPlan);
      // Before `status` was the one word, each record carried its status as `state`: a done, b still to run.
      const carried = {
        ...current,
        continuedAsNew: 1,
        tasks: current.tasks.map(({ status: _status, ...record }, index) =>
          index === 0 ? { ...record, state: 'COMPLETED', runs: 1, attempts: 1 } : { ...record, state: 'PENDING' },
        ),
      };
      const handle = await run.client.workflow.start<typeof projectWorkflow>('projectWorkflow', {
        taskQueue: run.taskQueue,
        workflowId: projectWorkflowId(projectPlan.project),
        args: [{ plan: { ...projectPlan, tasks: [], milestones: [] }, carried: carried as CarriedProjectState }],
      });
      const report = await handle.result();
      expect(states(report)).toEqual({ a: 'COMPLETED', b: 'COMPLETED' });
      expect(run.stubs.calls.claim.map((call) => call.taskId)).toEqual(['b']);
    });
  });

  it('while paused starts no new task; resume runs it', async () => {
    let current: StubRun | undefined;
    const script: StubScript = {
      code: async (_input, call) => {
        if (call === 1)
          await current!.client.workflow.getHandle(projectWorkflowId(current!.project)).signal(pauseSignal);
        return coderFinished;
      },
    };
    await server.withStubs(script, async (run) => {
      current = run;
      const handle = await startProject(run, plan(run, [{ id: 'a' }, { id: 'b' }], 1));
      await until('task a to end or pause while the project is paused', async () => {
        const view = await handle.query(projectStateQuery);
        const a = await run.client.workflow.getHandle(`task-${run.project}-a`).query(stateQuery);
        return view.status === 'PAUSED' && (a.status === 'PAUSED' || a.phase === 'done');
      });
      expect(run.stubs.calls.claim.map((call) => call.taskId)).toEqual(['a']);
      await handle.signal(resumeSignal);
      const report = await handle.result();
      expect(states(report)).toEqual({ a: 'COMPLETED', b: 'COMPLETED' });
    });
  });

  it('cancel ends the running task and marks pending ones CANCELLED', async () => {
    // Task a fails and stays open in its retry window, so it surely runs when the cancel comes.
    const missingEnv = testsFailedWith({ kind: 'MissingEnvVar', message: 'KeyError: CALC_MODE' });
    await server.withStubs({ test: missingEnv }, async (run) => {
      const projectPlan = plan(run, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }], 1);
      projectPlan.tasks[0]!.spec.retryWindowMs = 3_600_000;
      const handle = await startProject(run, projectPlan);
      const child = run.client.workflow.getHandle(`task-${run.project}-a`);
      await until('task a to wait in its retry window', async () => {
        const state = await child.query(stateQuery).catch(() => undefined);
        return !!state?.retryWindowEndsAt;
      });
      await handle.signal(cancelSignal, { reason: 'wrong repository' });
      const report = await handle.result();
      expect(report.status).toBe('CANCELLED');
      expect(states(report)).toEqual({ a: 'CANCELLED', b: 'CANCELLED' });
      expect(report.tasks.find((task) => task.id === 'b')?.reason).toContain('wrong repository');
    });
  });
});

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
