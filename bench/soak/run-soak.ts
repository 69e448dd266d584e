// One soak: a server, worker hosts, the projects scheduled, faults on purpose while they run, then the checks and
// the figures. Returns the printed report and whether every check passed.
import { Client, Connection } from '@temporalio/client';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectWorkflowId } from '../../domain/project/plan.js';
import { loadAverage } from '../lib/figures.js';
import {
  checkCommits,
  checkHistories,
  checkLeftovers,
  checkStates,
  historyLengths,
  listAll,
  type Check,
} from './checks.js';
import { planSoak } from './plan.js';
import { startSoakServer, type SoakServerKind } from './server.js';
import { writeSoakProject, type SoakProject } from './tasks-files.js';
import { SoakWorkers } from './workers.js';

const run = promisify(execFile);

export interface SoakOptions {
  tasks: number;
  workers: number;
  projects: number;
  server: SoakServerKind;
  /** Mean seconds between worker kills. */
  killEverySeconds: number;
  timeoutMinutes: number;
  log: (line: string) => void;
}

export interface SoakResult {
  checks: Check[];
  figures: [string, string][];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log } = options;
  const root = await mkdtemp(path.join(os.tmpdir(), 'taskloop-soak-'));
  await chmod(root, 0o711); // the cluster's PostgreSQL runs as the postgres user when this is root
  const server = await startSoakServer(options.server, path.join(root, 'server'), log);
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });
  const taskQueue = `soak-${path.basename(root)}`;
  const workers = new SoakWorkers(server.address, taskQueue, path.join(root, 'hosts'));
  try {
    await workers.start(options.workers);
    const prefix = `soak${Date.now().toString(36)}`;
    const tasks = planSoak(options.tasks, options.projects, prefix);
    const projects: SoakProject[] = [];
    for (const name of [...new Set(tasks.map((task) => task.project))])
      projects.push(
        await writeSoakProject(
          path.join(root, 'projects'),
          name,
          tasks.filter((task) => task.project === name),
        ),
      );
    const startLoad = loadAverage();
    const started = Date.now();
    for (const project of projects) {
      const env = { ...process.env, TEMPORAL_ADDRESS: server.address, TASKLOOP_HOME: path.join(root, 'cli') };
      await run(
        process.execPath,
        [path.resolve('bin', 'taskloop.js'), 'schedule', project.file, '--task-queue', taskQueue],
        { env },
      );
    }
    log(
      `soak: ${tasks.length} tasks in ${projects.length} projects on ${options.workers} worker hosts (${server.kind} server at ${server.address})`,
    );
    const faults = await driveUntilDone(
      client,
      server,
      workers,
      projects,
      tasks.filter((task) => task.expected !== 'NOT_STARTED').length,
      options,
    );
    const minutes = (Date.now() - started) / 60_000;
    await workers.stop();
    const serverCpu = await server.cpuMs();
    const taskRows = await listAll(client, `WorkflowType = 'taskWorkflow' AND Project STARTS_WITH "${prefix}"`);
    const checks = [
      checkStates(tasks, taskRows),
      await checkCommits(tasks, projects),
      await checkLeftovers(root, projects, workers.hosts),
      checkHistories(
        'the learning workflow',
        await historyLengths(client, await listAll(client, `WorkflowType = 'learningWorkflow'`)),
      ),
      checkHistories(
        'the project workflows',
        await historyLengths(client, await listAll(client, `WorkflowType = 'projectWorkflow'`)),
      ),
      {
        name: 'the faults happened',
        ok: faults.serverRestarts === 1 && workers.kills > 0,
        detail: `${workers.kills} worker kills, ${faults.serverRestarts} server restart`,
      },
    ];
    const durations = taskRows
      .filter((row) => row.closeTime)
      .map((row) => (row.closeTime as Date).getTime() - row.startTime.getTime())
      .sort((a, b) => a - b);
    const pct = (p: number) =>
      `${((durations[Math.min(durations.length - 1, Math.floor(p * durations.length))] ?? 0) / 1000).toFixed(1)} s`;
    const perTask = (ms: number) => `${(ms / Math.max(1, taskRows.length)).toFixed(0)} ms`;
    const events = taskRows.reduce((sum, row) => sum + row.historyLength, 0);
    const figures: [string, string][] = [
      ['server', `${server.kind} (${server.address})`],
      ['tasks (started)', `${tasks.length} (${taskRows.length})`],
      ['wall time', `${minutes.toFixed(1)} min`],
      ['throughput', `${(taskRows.length / minutes).toFixed(1)} tasks/min`],
      ['time to complete p50 / p95', `${pct(0.5)} / ${pct(0.95)}`],
      ['history events per task', (events / Math.max(1, taskRows.length)).toFixed(1)],
      ['worker CPU per task (all hosts)', perTask(workers.cpuMs())],
      ['worker peak RSS (one process)', `${workers.peakRssMb.toFixed(0)} MB`],
      ['server CPU per task', perTask(serverCpu.server)],
      ...(serverCpu.postgres === undefined
        ? []
        : [['PostgreSQL CPU per task', perTask(serverCpu.postgres)] as [string, string]]),
      ['load average at start / end', `${startLoad} / ${loadAverage()}`],
    ];
    return { checks, figures };
  } finally {
    await workers.stop().catch(() => undefined);
    await connection.close().catch(() => undefined);
    await server.stop().catch(() => undefined);
  }
}

/** Waits for every project to end, killing a random worker now and then and restarting the server once, at 40 %. */
async function driveUntilDone(
  client: Client,
  server: { restart(): Promise<void> },
  workers: SoakWorkers,
  projects: SoakProject[],
  expectedStarts: number,
  options: SoakOptions,
): Promise<{ serverRestarts: number }> {
  const deadline = Date.now() + options.timeoutMinutes * 60_000;
  const nextKillAt = () => Date.now() + (0.5 + Math.random()) * options.killEverySeconds * 1000;
  let killAt = nextKillAt();
  let serverRestarts = 0;
  // A worker takes a while to start again on a loaded machine: kills run beside the loop, one at a time.
  let killing: Promise<void> | undefined;
  let killFailure: unknown;
  for (;;) {
    await sleep(5000);
    await workers.sample();
    const closed = await client.workflow.count(`WorkflowType = 'taskWorkflow' AND ExecutionStatus != 'Running'`).then(
      (result) => result.count,
      () => -1,
    );
    const open = await projectsOpen(client, projects);
    options.log(`soak: ${closed} of ${expectedStarts} tasks ended; ${open} project(s) running; load ${loadAverage()}`);
    if (open === 0) {
      await killing;
      if (killFailure) throw killFailure;
      return { serverRestarts };
    }
    if (Date.now() > deadline) throw new Error(`the soak did not end within ${options.timeoutMinutes} minutes`);
    if (serverRestarts === 0 && closed >= expectedStarts * 0.4) {
      options.log('soak: restarting the Temporal server');
      await server.restart();
      serverRestarts++;
    }
    if (!killing && Date.now() > killAt && closed < expectedStarts * 0.9) {
      const host = workers.hosts[Math.floor(Math.random() * workers.hosts.length)];
      if (host) {
        options.log(`soak: SIGKILL the worker of ${host.hostId}`);
        killing = workers.killAndRestart(host).catch((error: unknown) => {
          killFailure ??= error;
        });
        void killing.finally(() => {
          killing = undefined;
          killAt = nextKillAt();
        });
      }
    }
  }
}

/** Projects whose latest run is still running (-1 counted as running while the server is away). */
async function projectsOpen(client: Client, projects: SoakProject[]): Promise<number> {
  let open = 0;
  for (const project of projects) {
    const status = await client.workflow
      .getHandle(projectWorkflowId(project.name))
      .describe()
      .then(
        (description) => description.status.name,
        () => 'UNKNOWN',
      );
    if (status === 'RUNNING' || status === 'UNKNOWN') open++;
  }
  return open;
}
