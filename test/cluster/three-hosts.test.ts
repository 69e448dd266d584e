// Three `taskloop worker` processes standing for three hosts (each its own TASKLOOP_HOME, work folder and host
// queue) serving one shared queue, driven by the CLI as a person would. Runs on whatever server the global setup
// gives: the self-hosted cluster in `npm run test:cluster`.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { calcFiles, fixTurns, wrongTurns } from '../support/calc-project.js';
import { runTaskloop } from '../support/cli.js';
import { pythonProcessesIn, spawnWorker, stopWorker, type WorkerProcess } from '../support/crash.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { gatedTest, releaseGate } from '../support/test-gate.js';
import { eventually, uniqueId } from '../integration/support/temporal.js';
import { taskloopCommits } from '../integration/support/tasks.js';
import { writeCalcTasksFile } from '../integration/support/tasks-file.js';

interface Host {
  env: NodeJS.ProcessEnv;
  worker: WorkerProcess;
}

const taskQueue = uniqueId('three-hosts');
const hosts: Host[] = [];

async function hostEnv(name: string): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(path.join(os.tmpdir(), `taskloop-${name}-`));
  return {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TASKLOOP_HOME: home,
    TASKLOOP_TASK_QUEUE: taskQueue,
    TASKLOOP_WORK_DIR: path.join(home, 'work'),
    TASKLOOP_HOST_ID: uniqueId(name),
    TASKLOOP_EVENTS_FILE: path.join(home, 'events.jsonl'),
  };
}

/** The CLI as a person on a fourth machine runs it: the same server and queue, a home of its own. */
const cliEnv = async () => ({ ...(await hostEnv('cli')), TASKLOOP_HOST_ID: undefined });
const taskloop = async (args: string[], cwd?: string) =>
  runTaskloop(args, { env: await cliEnv(), cwd, timeout: 240_000 });

async function writeScript(turns: unknown): Promise<string> {
  const file = path.join(await makeTempDir(), 'script.json');
  await writeFile(file, JSON.stringify({ coder: turns }));
  return file;
}

describe('three worker hosts on one server', () => {
  beforeAll(async () => {
    for (const name of ['host-a', 'host-b', 'host-c']) {
      const env = await hostEnv(name);
      hosts.push({ env, worker: await spawnWorker(env) });
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all(hosts.map((host) => stopWorker(host.worker)));
  });

  it('runs a task that passes after a retry, and `taskloop list` and `status` find it as soon as `run` returns', async () => {
    const repo = await makeRepo(calcFiles);
    const script = await writeScript([...wrongTurns(), ...fixTurns()]);
    const project = uniqueId('retry');
    const args = ['run', '--repo', repo, '--goal', 'Fix add', '--model', `scripted:${script}`, '--project', project];
    const started = await taskloop([...args, '--max-retries', '1', '--json']);
    expect(started.exitCode, started.all).toBe(0);
    const { workflowId } = JSON.parse(started.stdout) as { workflowId: string };
    const taskId = workflowId.slice(`task-${project}-`.length);
    // Right after the start, by task id: resolved through the visibility store, which may lag behind the start.
    const status = await taskloop(['status', taskId]);
    expect(status.exitCode, status.all).toBe(0);
    const listed = await taskloop(['list', '--project', project, '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ workflowId })]);

    const waited = await taskloop([...args, '--max-retries', '1', '--wait', '--json']);
    expect(waited.exitCode, waited.all).toBe(0);
    const outcome = JSON.parse(waited.stdout) as { status: string; attempts: unknown[] };
    expect(outcome).toMatchObject({ status: 'COMPLETED' });
    expect(outcome.attempts).toHaveLength(2);
    expect(await taskloopCommits(repo, `taskloop/${taskId}`)).toHaveLength(1);
    const completed = await eventually('the list to show the task completed', async () => {
      const rows = JSON.parse((await taskloop(['list', '--project', project, '--json'])).stdout) as {
        status: string;
      }[];
      return rows[0]?.status === 'COMPLETED' ? rows : undefined;
    });
    expect(completed).toHaveLength(1);
  });

  it('finishes a project with dependencies in their order, one commit per task', async () => {
    const repo = await makeRepo(calcFiles);
    const project = uniqueId('deps');
    const tasks = [
      { id: 'a' },
      { id: 'b', dependsOn: ['a'] },
      { id: 'c', dependsOn: ['a'] },
      { id: 'd', dependsOn: ['b', 'c'] },
    ];
    const { file, dir } = await writeCalcTasksFile({ repo, project, tasks, concurrency: 3 });
    const result = await taskloop(['schedule', file, '--wait', '--json'], dir);
    expect(result.exitCode, result.all).toBe(0);
    for (const task of tasks) expect(await taskloopCommits(repo, `taskloop/${task.id}`)).toHaveLength(1);
    const report = JSON.parse(result.stdout) as { tasks?: { id: string; status: string }[] };
    expect(JSON.stringify(report)).toContain('COMPLETED');
  });

  it('finishes a task with exactly one commit when its host is killed with SIGKILL during the test run', async () => {
    const repo = await makeRepo({ ...calcFiles, ...gatedTest() });
    const script = await writeScript(fixTurns());
    const project = uniqueId('crash');
    const args = ['run', '--repo', repo, '--goal', 'Fix add', '--model', `scripted:${script}`, '--project', project];
    const started = await taskloop([...args, '--json']);
    expect(started.exitCode, started.all).toBe(0);
    const { workflowId } = JSON.parse(started.stdout) as { workflowId: string };
    const index = await eventually(
      'pytest to run on one of the hosts',
      async () => {
        for (const [i, host] of hosts.entries())
          if ((await pythonProcessesIn(host.env.TASKLOOP_WORK_DIR ?? '?')).length > 0) return i;
        return undefined;
      },
      120_000,
    );
    const host = hosts[index] as Host;
    host.worker.child.kill('SIGKILL');
    await host.worker.child.catch(() => undefined);
    host.worker = await spawnWorker(host.env);
    await releaseGate(repo);
    const waited = await taskloop([...args, '--wait', '--json']);
    expect(waited.exitCode, waited.all).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'COMPLETED' });
    expect(await taskloopCommits(repo, `taskloop/${workflowId.slice(`task-${project}-`.length)}`)).toHaveLength(1);
  });
});
