// A cluster whose frontend rate-limits the namespace hard (a few requests per second, as a busy shared cluster or a
// Temporal Cloud namespace at its limit does): the CLI and the workers meet RESOURCE_EXHAUSTED and must wait and try
// again, never report it as a failure. The server's own metrics prove the limit was hit.
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type RunningCluster } from '../../platform/cluster/cluster.js';
import { runTaskloop } from '../support/cli.js';
import { spawnWorker, stopWorker, workerLogTail, type WorkerProcess } from '../support/crash.js';
import { makeRepo } from '../support/git-repo.js';
import { calcFiles } from '../support/calc-project.js';
import { uniqueId } from '../integration/support/temporal.js';
import { taskloopCommits } from '../integration/support/tasks.js';
import { writeCalcTasksFile } from '../integration/support/tasks-file.js';

let cluster: RunningCluster;
let worker: WorkerProcess;
const taskQueue = uniqueId('rate-limits');

async function env(name: string): Promise<NodeJS.ProcessEnv> {
  const home = await mkdtemp(path.join(os.tmpdir(), `taskloop-${name}-`));
  return {
    ...process.env,
    TEMPORAL_ADDRESS: cluster.address,
    TASKLOOP_HOME: home,
    TASKLOOP_TASK_QUEUE: taskQueue,
    TASKLOOP_WORK_DIR: path.join(home, 'work'),
    TASKLOOP_HOST_ID: uniqueId(name),
  };
}

/** The server's count of requests it refused for a rate limit (Prometheus text, summed over its label sets). */
async function rateLimited(): Promise<number> {
  const text = await (await fetch(cluster.metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('service_errors_resource_exhausted') && /RpsLimit/i.test(line))
    .reduce((sum, line) => sum + Number(line.trim().split(/\s+/).at(-1)), 0);
}

describe('a cluster that rate-limits the namespace', () => {
  beforeAll(async () => {
    // PostgreSQL runs as its own user when the tests run as root: it must be able to reach its data folder.
    await chmod(os.tmpdir(), 0o711);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-rate-limited-'));
    await chmod(dataDir, 0o711);
    cluster = await startCluster({
      dataDir,
      dynamicConfig: {
        'frontend.namespaceRPS': 8,
        'frontend.namespaceBurstRatio': 1,
        'frontend.namespaceRPS.visibility': 2,
        'frontend.namespaceBurstRatio.visibility': 1,
      },
    });
    worker = await spawnWorker(await env('host'));
  }, 240_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await cluster?.stop();
  });

  it('finishes a project and answers every list while the frontend refuses requests over its limit', async () => {
    const repo = await makeRepo(calcFiles);
    const project = uniqueId('limited');
    const tasks = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id }));
    const { file, dir } = await writeCalcTasksFile({ repo, project, tasks, concurrency: 3 });
    const cli = await env('cli');
    const scheduled = runTaskloop(['schedule', file, '--wait', '--json'], { env: cli, cwd: dir, timeout: 280_000 });
    // People and scripts asking at the same time: twelve lists at once, against two visibility requests a second.
    const lists = await Promise.all(
      Array.from({ length: 12 }, () =>
        runTaskloop(['list', '--project', project, '--json'], { env: cli, timeout: 120_000 }),
      ),
    );
    for (const list of lists) expect(list.exitCode, list.all).toBe(0);
    const result = await scheduled;
    expect(result.exitCode, `${result.all}\n${await workerLogTail(worker)}`).toBe(0);
    for (const task of tasks) expect(await taskloopCommits(repo, `taskloop/${task.id}`)).toHaveLength(1);
    // The limit was really met: otherwise this test would prove nothing about it.
    expect(await rateLimited()).toBeGreaterThan(0);
  });
});
