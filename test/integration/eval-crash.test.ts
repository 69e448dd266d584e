// A killed eval resumes: the CLI and the worker are SIGKILLed after the first instance finished; a new worker and the
// same command again finish the eval, and the finished instance ran once (one task run, one TASK_COMPLETED event).
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../domain/eval/report.js';
import { runTaskloop, startWorkerProcess } from '../support/cli.js';
import { makeTempDir } from '../support/git-repo.js';
import { makeTinySuite } from '../support/eval-suite.js';
import { connectTestClient, eventually, uniqueId, workerProcessEnv } from './support/temporal.js';

const completions = async (file: string | undefined, workflowId: string) =>
  (await readFile(file ?? '', 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line.includes('"TASK_COMPLETED"') && line.includes(workflowId)).length;

describe('taskloop eval after a crash', () => {
  it('resumes with no finished instance run twice when the CLI and the worker are killed midway', async () => {
    const taskQueue = uniqueId('eval-crash');
    const home = await makeTempDir();
    const suite = await makeTinySuite(uniqueId('crash'));
    const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TASKLOOP_HOME: home };
    const args = ['eval', suite.suiteFile, '--model', 'oracle', '--concurrency', '1', '--max-retries', '0'];
    const args2 = [...args, '--task-queue', taskQueue, '--json'];
    const firstEnv = await workerProcessEnv(taskQueue);
    const first = await startWorkerProcess(firstEnv);
    const cli = runTaskloop(args2, { env });
    const { client, connection } = await connectTestClient();
    try {
      // The first instance has finished (its task completed), the second has not yet: kill both processes now.
      const finished = await eventually(
        'the first instance finished',
        async () => {
          for await (const run of client.workflow.list({
            query: `WorkflowType = "taskWorkflow" AND ExecutionStatus = "Completed" AND WorkflowId STARTS_WITH "task-${suite.name}"`,
          }))
            return run.workflowId;
          return undefined;
        },
        60_000,
      );
      cli.kill('SIGKILL');
      first.child.kill('SIGKILL');
      await Promise.allSettled([cli, first.child]);

      const secondEnv = await workerProcessEnv(taskQueue);
      const second = await startWorkerProcess(secondEnv);
      try {
        const again = await runTaskloop(args2, { env, timeout: 180_000 });
        expect(again.exitCode, again.all).toBe(0);
        expect(again.stderr).toMatch(/resumed eval-.*-a1/);
        const report = JSON.parse(again.stdout) as EvalReport;
        expect(report.arms[0]).toMatchObject({ resolved: 2, instances: 2 });
        let runs = 0;
        for await (const _ of client.workflow.list({ query: `WorkflowId = "${finished}"` })) runs += 1;
        expect(runs).toBe(1);
        const events =
          (await completions(firstEnv.TASKLOOP_EVENTS_FILE, finished)) +
          (await completions(secondEnv.TASKLOOP_EVENTS_FILE, finished));
        expect(events).toBe(1);
      } finally {
        second.child.kill('SIGTERM');
        await second.child.catch(() => undefined);
      }
    } finally {
      await connection.close();
    }
  });
});
