// Project schedules through the CLI (`taskloop schedule FILE --every`), as a person runs them: the Temporal Schedule
// it makes, its triggered runs, and runs of one task id that keep every commit on a branch of its own.
import { ScheduleNotFoundError, type Client, type Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectWorkflowId } from '../../domain/project/plan.js';
import { scheduledRunId } from '../../domain/project/project-state.js';
import type { ProjectReport } from '../../domain/project/project-report.js';
import type { ProjectScheduleRow } from '../../client/projects/schedules.js';
import { LONG_TEST_MS, taskloop, writeTasksFile } from './support/cli-projects.js';
import { git } from './support/tasks.js';
import { connectTestClient, eventually, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';
import { withTaskLinesJson } from '../../client/output/json-rows.js';

describe('taskloop schedule --every, as a person runs it', () => {
  let client: Client;
  let connection: Connection;
  let host: TestWorkerHost;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId('cli-schedule') });
  });

  afterAll(async () => {
    await host?.stop();
    await connection?.close();
  });

  it.concurrent(
    '--every creates a Temporal Schedule whose triggered run completes; --list shows it, report finds the run by name, --delete removes it',
    async () => {
      const { file, dir, project } = await writeTasksFile([{ id: 'a' }]);
      const scheduleId = `schedule-${project}`;
      const args = ['schedule', file, '--every', '1h', '--task-queue', host.taskQueue, '--json'];
      const created = await taskloop(args, dir);
      expect(created.exitCode, created.all).toBe(0);
      expect(JSON.parse(created.stdout)).toEqual({ scheduleId, created: true });
      const again = await taskloop(args, dir);
      expect(JSON.parse(again.stdout)).toEqual({ scheduleId, created: false });

      const schedule = client.schedule.getHandle(scheduleId);
      const described = await schedule.describe();
      expect(described.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'projectWorkflow',
        workflowId: projectWorkflowId(project),
        taskQueue: host.taskQueue,
      });
      await schedule.trigger();
      // Temporal appends the scheduled time to the action's workflow id, so every run has an id of its own.
      const runId = await eventually(
        'the triggered run',
        async () => (await schedule.describe()).info.recentActions[0]?.action.workflow.workflowId,
      );
      expect(runId.startsWith(`${projectWorkflowId(project)}-`)).toBe(true);
      const report = (await client.workflow.getHandle(runId).result()) as ProjectReport;
      expect(report.tasks.map((task) => [task.id, task.status])).toEqual([['a', 'COMPLETED']]);

      const [list, byName] = await Promise.all([
        taskloop(['schedule', '--list', '--json']),
        eventually('the run found by its Project search attribute', async () => {
          const result = await taskloop(['report', project, '--json']);
          return result.exitCode === 0 ? result : undefined;
        }),
      ]);
      const listed = (JSON.parse(list.stdout) as ProjectScheduleRow[]).find((row) => row.scheduleId === scheduleId);
      expect(listed).toMatchObject({ project, everyMs: 3_600_000, paused: false, recentRuns: [{ workflowId: runId }] });
      // The --json form of the workflow's own report: absent fields are null (client/output/json-rows.ts).
      expect(JSON.parse(byName.stdout)).toEqual({
        ...withTaskLinesJson(report),
        // What landed and what waits (docs/review-and-land.md): nothing, in a project without approval or landOn.
        landed: [],
        waiting: [],
        card: expect.objectContaining({ fidelity: 1 }),
      });

      const removed = await taskloop(['schedule', '--delete', project]);
      expect(removed.exitCode, removed.all).toBe(0);
      expect(removed.stdout).toContain(`deleted schedule ${scheduleId}`);
      await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
      const missing = await taskloop(['schedule', '--delete', project]);
      expect(missing.exitCode).toBe(2);
    },
    LONG_TEST_MS,
  );

  it.concurrent(
    'two tasks files and two scheduled runs with one task id keep all four commits, each on a branch of its own',
    async () => {
      const first = await writeTasksFile([{ id: 'a' }]);
      const second = await writeTasksFile([{ id: 'a' }], uniqueId('cp'), first.repo);
      const scheduled = await writeTasksFile([{ id: 'a' }], uniqueId('cp'), first.repo);
      for (const { file, dir } of [first, second]) {
        const result = await taskloop(['schedule', file, '--task-queue', host.taskQueue, '--wait', '--json'], dir);
        expect(result.exitCode, result.all).toBe(0);
      }
      const created = await taskloop(
        ['schedule', scheduled.file, '--every', '1h', '--task-queue', host.taskQueue, '--json'],
        scheduled.dir,
      );
      expect(created.exitCode, created.all).toBe(0);
      const schedule = client.schedule.getHandle(`schedule-${scheduled.project}`);
      const scheduledRuns: string[] = [];
      try {
        let lastTrigger = 0;
        for (const run of [1, 2]) {
          // The schedule skips a trigger while it still counts a run as running (overlap SKIP): its own view of the
          // run before must have caught up with that run's end, which comes a moment after the result.
          await eventually(`the schedule sees no run running before run ${run}`, async () =>
            (await schedule.describe()).info.runningActions.length === 0 ? true : undefined,
          );
          // A run's workflow id ends in its scheduled time to the second: a second trigger within the same second
          // would reuse the first run's id, and the schedule starts nothing (a project run can take under a second).
          const nextSecond = (Math.floor(lastTrigger / 1000) + 1) * 1000;
          if (Date.now() < nextSecond) await new Promise((resolve) => setTimeout(resolve, nextSecond - Date.now()));
          lastTrigger = Date.now();
          await schedule.trigger();
          const runId = await eventually(`scheduled run ${run}`, async () => {
            const recent = (await schedule.describe()).info.recentActions.map(
              (action) => action.action.workflow.workflowId,
            );
            return recent.find((id) => !scheduledRuns.includes(id));
          });
          scheduledRuns.push(runId);
          expect(
            ((await client.workflow.getHandle(runId).result()) as ProjectReport).tasks.map((task) => task.status),
          ).toEqual(['COMPLETED']);
        }
      } finally {
        await schedule.delete();
      }

      const taskIds = [
        `task-${first.project}-a`,
        `task-${second.project}-a`,
        ...scheduledRuns.map(
          (runId) => `task-${scheduled.project}-a-${scheduledRunId(runId, scheduled.project) ?? '?'}`,
        ),
      ];
      const commits = await Promise.all(
        taskIds.map(async (id) => {
          const status = await taskloop(['status', id, '--json']);
          expect(status.exitCode, status.all).toBe(0);
          return (JSON.parse(status.stdout) as { outcome: { commit: { sha: string; branch: string } } }).outcome.commit;
        }),
      );
      expect(commits.map((commit) => commit.branch)).toEqual([
        'taskloop/a',
        'taskloop/a-run2',
        'taskloop/a-run3',
        'taskloop/a-run4',
      ]);
      expect(new Set(commits.map((commit) => commit.sha)).size).toBe(4);
      // Each named branch still holds the commit status reports for it: no run reset an earlier run's branch.
      for (const commit of commits) expect((await git(first.repo, 'rev-parse', commit.branch)).trim()).toBe(commit.sha);
      expect((await git(first.repo, 'branch', '--list', 'taskloop/*')).split('\n')).toHaveLength(4);
    },
    LONG_TEST_MS,
  );
});
