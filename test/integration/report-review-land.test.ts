// The project report's review and landing lists on a real project run (real server, worker, git and pytest, the
// real CLI): a task with `landOn: main` lands and is listed with its branch, commit and time; a task with `approval:
// required` is listed as waiting for a person (its round, since when, for how long, the command that answers); once
// it is approved the project ends and its final report still lists what landed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewAndLanding } from '../../domain/project/review-and-landing.js';
import { git } from './support/tasks.js';
import { LONG_TEST_MS, taskloop, writeTasksFile } from './support/cli-projects.js';
import { eventually, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';

describe('the project report lists what landed and what waits for whom', () => {
  let host: TestWorkerHost;
  beforeAll(async () => {
    host = await startTestWorkers({ taskQueue: uniqueId('report-land') });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it(
    'a landed change and a change awaiting approval, live and then in the final report',
    async () => {
      const { file, dir, project, repo } = await writeTasksFile([
        { id: 'lands', landOn: 'main' },
        { id: 'waits', approval: 'required' },
      ]);
      const started = await taskloop(['schedule', file, '--task-queue', host.taskQueue], dir);
      expect(started.exitCode, started.all).toBe(0);

      const lists = await eventually(
        'one change landed and one awaiting approval',
        async () => {
          const printed = await taskloop(['report', project, '--json']);
          if (printed.exitCode !== 0) return undefined;
          const report = JSON.parse(printed.stdout) as Partial<ReviewAndLanding>;
          return report.landed?.length === 1 && report.waiting?.length === 1 ? report : undefined;
        },
        LONG_TEST_MS,
      );
      const head = (await git(repo, 'rev-parse', 'main')).trim();
      expect(lists.landed).toEqual([{ taskId: 'lands', target: 'main', commit: head, at: expect.any(String) }]);
      const waitsId = `task-${project}-waits`;
      expect(lists.waiting).toEqual([
        expect.objectContaining({
          taskId: 'waits',
          workflowId: waitsId,
          waitsFor: 'a person',
          where: expect.stringMatching(/^approval of round 1 \([0-9a-f]{12}\)$/),
        }),
      ]);

      const text = await taskloop(['report', project]);
      expect(text.exitCode, text.all).toBe(0);
      expect(text.stdout).toMatch(new RegExp(`^  lands +main +${head.slice(0, 12)} +\\S+Z$`, 'm'));
      expect(text.stdout).toMatch(/^ {2}waits +a person +approval of round 1 \([0-9a-f]{12}\) +\S+Z +\d+ (s|min)/m);
      expect(text.stdout).toContain(
        `answer waits: taskloop approve ${waitsId} (or request-changes, reject; taskloop review)`,
      );

      const approved = await taskloop(['approve', waitsId, '--as', 'ana']);
      expect(approved.exitCode, approved.all).toBe(0);
      const final = await eventually(
        'the project ends',
        async () => {
          const printed = await taskloop(['report', project, '--json']);
          const report = JSON.parse(printed.stdout) as Partial<ReviewAndLanding> & { live?: boolean };
          return printed.exitCode === 0 && !report.live ? report : undefined;
        },
        LONG_TEST_MS,
      );
      expect(final.landed?.map((change) => change.taskId)).toEqual(['lands']);
      expect(final.waiting).toEqual([]);
    },
    LONG_TEST_MS * 2,
  );
});
