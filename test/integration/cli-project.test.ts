import { WorkflowNotFoundError, type Client, type Connection } from '@temporalio/client';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectWorkflowId } from '../../domain/project/plan.js';
import type { ProjectReport, ProjectStateView } from '../../domain/project/project-report.js';
import type { WorkflowRow } from '../../client/projects/list-workflows.js';
import { calcFiles, fixTurns, makeCalcProject } from '../support/calc-project.js';
import { makeRepo } from '../support/git-repo.js';
import { gatedTest, releaseGate } from '../support/test-gate.js';
import { LONG_TEST_MS, taskloop, writeTasksFile } from './support/cli-projects.js';
import { connectTestClient, eventually, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';

async function listRows(client: Client, project: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of client.workflow.list({ query: `Project = "${project}"` }))
    ids.push(`${execution.type} ${execution.workflowId}`);
  return ids.sort();
}

describe('taskloop schedule, list, status, pause, resume, watch and report on projects, as a person runs them', () => {
  let client: Client;
  let connection: Connection;
  let host: TestWorkerHost;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId('cli-project') });
  });

  afterAll(async () => {
    await host?.stop();
    await connection?.close();
  });

  it.concurrent(
    'scheduling the same file twice makes one project; --wait, list, status --json, report and watch then show it',
    async () => {
      const { file, dir, project } = await writeTasksFile([{ id: 'a' }, { id: 'b', dependsOn: ['a'] }]);
      const workflowId = projectWorkflowId(project);
      const first = await taskloop(['schedule', file, '--task-queue', host.taskQueue, '--json'], dir);
      expect(first.exitCode, first.all).toBe(0);
      expect(JSON.parse(first.stdout)).toEqual({ workflowId, started: true });

      const again = await taskloop(['schedule', 'tasks.yaml', '--task-queue', host.taskQueue, '--wait', '--json'], dir);
      expect(again.exitCode, again.all).toBe(0);
      expect(again.stderr).toContain(`project ${workflowId} already exists (status RUNNING); nothing new started`);
      const report = JSON.parse(again.stdout) as ProjectReport;
      expect(report.tasks.map((task) => [task.id, task.status, task.attempts])).toEqual([
        ['a', 'COMPLETED', 1],
        ['b', 'COMPLETED', 1],
      ]);

      const rows = await eventually('the project and its two tasks listed', async () => {
        const result = await taskloop(['list', '--project', project, '--json']);
        expect(result.exitCode, result.all).toBe(0);
        const listed = JSON.parse(result.stdout) as WorkflowRow[];
        return listed.length === 3 && listed.every((row) => row.executionStatus === 'COMPLETED') ? listed : undefined;
      });
      expect(rows.map((row) => `${row.type} ${row.workflowId} ${row.status}`).sort()).toEqual([
        `project ${workflowId} COMPLETED`,
        `task task-${project}-a COMPLETED`,
        `task task-${project}-b COMPLETED`,
      ]);
      expect(await listRows(client, project)).toHaveLength(3);

      const [status, byName, markdown, watch, failedOnly, table] = await Promise.all([
        taskloop(['status', workflowId, '--json']),
        taskloop(['report', project, '--json']),
        taskloop(['report', project, '--markdown']),
        taskloop(['watch', project]),
        taskloop(['list', '--project', project, '--status', 'FAILED', '--json']),
        taskloop(['list', '--project', project, '--type', 'project']),
      ]);
      expect(status.exitCode, status.all).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({
        kind: 'project',
        workflowId,
        executionStatus: 'COMPLETED',
        workflowStatus: 'COMPLETED',
        report: { status: 'COMPLETED', total: 2 },
      });
      // Every task line has every field: a completed task's failure class and reason are null, not missing.
      expect(JSON.parse(status.stdout).report.tasks[0]).toMatchObject({
        status: 'COMPLETED',
        failureClass: null,
        reason: null,
      });
      expect(byName.exitCode, byName.all).toBe(0);
      // The final report plus its learning card: both tasks passed at attempt 1.
      expect(JSON.parse(byName.stdout)).toEqual({
        ...report,
        // What landed and what waits (docs/review-and-land.md): nothing, in a project without approval or landOn.
        landed: [],
        waiting: [],
        card: expect.objectContaining({
          fidelity: 1,
          passRateAt1: 1,
          tasks: expect.objectContaining({ total: 2, completed: 2 }),
        }),
      });
      expect(markdown.stdout).toContain('### Report card');
      expect(markdown.stdout).toContain('| a | COMPLETED | 1 |');
      expect(watch.exitCode, watch.all).toBe(0);
      expect(watch.stdout).toContain('[########################] 2/2');
      expect(JSON.parse(failedOnly.stdout)).toEqual([]);
      expect(table.stdout).toMatch(new RegExp(`${workflowId}\\s+project\\s+COMPLETED`));
    },
    LONG_TEST_MS,
  );

  it.concurrent(
    'a project paused by name before any worker serves it stays PAUSED; resume, and watch follows it and a task to the end',
    async () => {
      const queue = uniqueId('cli-project-late');
      // Besides the project: a second project, cancelled before it ever runs, and a task of its own, so that its
      // watch begins before it runs. All on a queue no worker serves yet.
      // The project's tasks and the task wait at a gate in their tests, released once watch has shown them RUNNING.
      const [{ file, dir, project, repo }, other, calc] = await Promise.all([
        makeRepo({ ...calcFiles, ...gatedTest() }).then((gated) =>
          writeTasksFile([{ id: 'a' }, { id: 'b' }], undefined, gated),
        ),
        writeTasksFile([{ id: 'x' }]),
        makeCalcProject({ coder: fixTurns() }, { ...calcFiles, ...gatedTest() }),
      ]);
      const workflowId = projectWorkflowId(project);
      const [scheduled, otherScheduled, run] = await Promise.all([
        taskloop(['schedule', file, '--task-queue', queue], dir),
        taskloop(['schedule', other.file, '--task-queue', queue], other.dir),
        taskloop(
          [
            'run',
            '--repo',
            calc.repo,
            '--goal',
            'Fix add in calc.py',
            '--model',
            'scripted:script.json',
            '--task-queue',
            queue,
            '--json',
          ],
          calc.dir,
        ),
      ]);
      expect(scheduled.exitCode, scheduled.all).toBe(0);
      expect(scheduled.stdout).toContain(
        `started project ${workflowId} with 2 tasks (concurrency 2) on task queue ${queue}`,
      );
      expect(otherScheduled.exitCode, otherScheduled.all).toBe(0);
      expect(run.exitCode, run.all).toBe(0);
      const taskWorkflowId = (JSON.parse(run.stdout) as { workflowId: string }).workflowId;

      const [pause, cancel] = await Promise.all([
        taskloop(['pause', project]),
        taskloop(['cancel', other.project, '--reason', 'not this week']),
      ]);
      expect(pause.exitCode, pause.all).toBe(0);
      expect(pause.stdout).toContain(`sent pause to ${workflowId}: it starts no new task`);
      expect(cancel.exitCode, cancel.all).toBe(0);
      expect(cancel.stdout).toContain(`sent cancel to ${projectWorkflowId(other.project)} (reason: not this week)`);

      const watchingProject = watchUntilStarted(['watch', project]);
      const watchingTask = watchUntilStarted(['watch', taskWorkflowId]);
      await Promise.all([watchingProject.begun, watchingTask.begun]);
      const late = await startTestWorkers({ taskQueue: queue });
      try {
        const paused = await eventually(
          'the project to answer its state query',
          async () => {
            const status = await taskloop(['status', project, '--json']);
            return status.exitCode === 0 ? (JSON.parse(status.stdout) as { state: ProjectStateView }) : undefined;
          },
          40_000,
        );
        expect(paused.state).toMatchObject({ status: 'PAUSED', paused: true });
        expect(paused.state.tasks.map((task) => task.state)).toEqual(['PENDING', 'PENDING']);

        const [nothingToRetry, notRetryable] = await Promise.all([
          taskloop(['retry', project]),
          taskloop(['retry', project, '--task', 'a', '--hint', 'h']),
        ]);
        expect(nothingToRetry.exitCode).toBe(1);
        expect(nothingToRetry.stderr).toContain(`project ${workflowId} has no FAILED or CANCELLED task to retry`);
        expect(notRetryable.exitCode).toBe(1);
        expect(notRetryable.stderr).toContain(`project ${workflowId} refused to retry a:`);

        const resume = await taskloop(['resume', workflowId]);
        expect(resume.exitCode, resume.all).toBe(0);
        await Promise.all([
          watchingProject.shows(/ a +RUNNING/),
          watchingTask.shows(/s {2}RUNNING, phase \w+, attempt 1/),
        ]);
        await Promise.all([releaseGate(repo), releaseGate(calc.repo)]);
        const [watchedProject, watchedTask] = await Promise.all([watchingProject.done, watchingTask.done]);
        expect(watchedProject.exitCode, watchedProject.all).toBe(0);
        expect(watchedProject.stdout).toMatch(/ a +RUNNING/);
        expect(watchedProject.stdout).toMatch(/ b +COMPLETED/);
        expect(watchedProject.stdout).toContain('[########################] 2/2');
        expect(watchedTask.exitCode, watchedTask.all).toBe(0);
        expect(watchedTask.stdout).toMatch(/s {2}RUNNING, phase \w+, attempt 1/);
        expect(watchedTask.stdout).toContain(`${taskWorkflowId}: COMPLETED after 1 attempt`);
        await client.workflow.getHandle(projectWorkflowId(other.project)).result();
        const [report, cancelled, closedRetry] = await Promise.all([
          taskloop(['report', project]),
          taskloop(['report', other.project, '--json']),
          taskloop(['retry', other.project]),
        ]);
        expect(report.stdout).toContain(`project ${project}: COMPLETED`);
        expect(report.stdout).toContain('pass rate at attempt 1: 100%');
        expect(JSON.parse(cancelled.stdout)).toMatchObject({
          status: 'CANCELLED',
          cancelReason: 'not this week',
          tasks: [{ id: 'x', status: 'CANCELLED' }],
        });
        expect(closedRetry.exitCode).toBe(1);
        expect(closedRetry.stderr).toContain('has already closed (COMPLETED) and takes no more work');
      } finally {
        await late.stop();
      }
    },
    LONG_TEST_MS,
  );

  const badFiles: [string, (text: string) => string, RegExp][] = [
    [
      'a cycle',
      (text) =>
        text.replace('goal: "Fix add in calc.py (a)"', 'goal: "Fix add in calc.py (a)"\n            dependsOn: [b]'),
      /tasks\.yaml:\d+:\d+ .*cycle: (a -> b -> a|b -> a -> b)/,
    ],
    [
      'an unknown dependency',
      (text) => text.replace('dependsOn: [a]', 'dependsOn: [zz]'),
      /tasks\.yaml:17:25 .*depends on 'zz', which is not in the file/,
    ],
    ['a duplicate id', (text) => text.replace('- id: b', '- id: a'), /tasks\.yaml:15:\d+ .*duplicate task id 'a'/],
    [
      'a bad type',
      (text) => text.replace('maxRetries: 0', 'maxRetries: three'),
      /tasks\.yaml:4:15 .*maxRetries.*got "three"/,
    ],
  ];
  it.concurrent.each(badFiles)(
    'a tasks file with %s is refused with exit 2, naming file:line:col, and nothing starts',
    async (_name, spoil, message) => {
      const { file, dir, project } = await writeTasksFile([{ id: 'a' }, { id: 'b', dependsOn: ['a'] }]);
      await writeFile(file, spoil(await readFile(file, 'utf8')));
      const result = await taskloop(['schedule', 'tasks.yaml', '--task-queue', host.taskQueue], dir);
      expect(result.exitCode, result.all).toBe(2);
      expect(result.stderr).toMatch(message);
      await expect(client.workflow.getHandle(projectWorkflowId(project)).describe()).rejects.toBeInstanceOf(
        WorkflowNotFoundError,
      );
    },
  );

  it.concurrent(
    'a task whose repository is not a git repository is refused before anything starts; unknown ids and bad flags exit 2',
    async () => {
      const { file, dir, project } = await writeTasksFile([{ id: 'a' }]);
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^repo: .*$/m, `repo: ${dir}`));
      const [notGit, unknown, badFlag, help] = await Promise.all([
        taskloop(['schedule', file, '--task-queue', host.taskQueue]),
        taskloop(['report', 'no-such-project']),
        taskloop(['list', '--class', 'nonsense']),
        taskloop(['schedule', '--help']),
      ]);
      expect(notGit.exitCode).toBe(2);
      expect(notGit.stderr).toContain(`tasks.yaml: task a: repo: ${dir} is not a git repository`);
      await expect(client.workflow.getHandle(projectWorkflowId(project)).describe()).rejects.toBeInstanceOf(
        WorkflowNotFoundError,
      );
      expect(unknown.exitCode).toBe(2);
      expect(unknown.stderr).toContain('no project named no-such-project');
      expect(badFlag.exitCode).toBe(2);
      expect(badFlag.stderr).toContain('--class must be one of');
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain('Usage: taskloop schedule FILE');
    },
  );
});

/**
 * Starts `taskloop watch ...`; `begun` settles once it has found the workflow and started watching, `shows(pattern)`
 * once its output so far matches `pattern` (rejecting if it ends first).
 */
function watchUntilStarted(args: string[]) {
  const done = taskloop(args);
  let text = '';
  done.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const shows = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(text)) return false;
        resolve();
        return true;
      };
      if (check()) return;
      done.stdout?.on('data', check);
      void done.then((result) => reject(new Error(`watch ended before it showed ${pattern}: ${result.all}`)));
    });
  return { begun: shows(/watching /), shows, done };
}
