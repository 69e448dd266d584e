// One task run through a crash: a `taskloop worker` process is killed at a chosen point and restarted (on the same
// host or as another one); `finish` checks the end state and returns the recovery time (last kill to outcome).
import type { Client, WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { TaskSpecInput } from '../../../domain/task-spec.js';
import type { TaskOutcome, TaskState } from '../../../domain/task-state.js';
import { calcFiles, type ScriptTurn } from '../../support/calc-project.js';
import {
  descendantsOf,
  killWorker,
  leftoverProcesses,
  spawnWorker,
  stopWorker,
  type KillMode,
  workerLogTail,
  type WorkerProcess,
} from '../../support/crash.js';
import { makeRepo, makeTempDir } from '../../support/git-repo.js';
import { stateQuery } from '../../../workflows/messages.js';
import { withSlowGit } from './slow-git.js';
import { git, readEvents, startTestTask, taskloopCommits, taskSpec, waitForState } from './tasks.js';
import { uniqueId, workerProcessEnv } from './temporal.js';

/**
 * Heartbeat timeout of the tasks in crash and host tests: a killed worker's step is retried sooner than after the
 * default 20 s. The least a spec allows: the coder's first reads (a learning query of up to 5 s when the project's
 * learning workflow has no worker, as in these tests) send no heartbeat, and 5 s failed every coder there on a loaded machine.
 */
export const TEST_HEARTBEAT_TIMEOUT_MS = 10_000;
/**
 * How long a step waits for its lost host in tests where the host never comes back (the least a spec allows; 45 s by
 * default). Not where the same host restarts: a worker starting on a loaded machine may take longer to poll.
 */
export const TEST_HOST_LOST_AFTER_MS = 5_000;

export interface CrashRunOptions {
  files?: Record<string, string>;
  coder: ScriptTurn[];
  /** Reviewer model turns: with them the review asks the model too (without, the review is its rules alone). */
  reviewer?: ScriptTurn[];
  spec?: Partial<Omit<TaskSpecInput, 'id' | 'repo'>>;
  /** Git subcommands the worker's git runs 2 s slower (see slow-git.ts), so a crash can land inside them. */
  slowGit?: string[];
}

export class CrashRun {
  /** Runs whose worker is still up, for an afterEach that stops them when a test failed midway. */
  static readonly open = new Set<CrashRun>();
  private readonly envs: NodeJS.ProcessEnv[] = [];
  private readonly killed: { pid: number; start: string }[] = [];
  /** Every worker started for this run, killed or not: their output explains a run that stalls. */
  private readonly workers: WorkerProcess[] = [];
  /** Killed workers followed by another worker's start on this host. */
  private lastKillAt = 0;

  private constructor(
    readonly handle: WorkflowHandle,
    readonly repo: string,
    readonly branch: string,
    private worker: WorkerProcess | undefined,
    env: NodeJS.ProcessEnv,
  ) {
    this.envs.push(env);
    if (worker) this.workers.push(worker);
    CrashRun.open.add(this);
  }

  static async stopAll(): Promise<void> {
    for (const run of CrashRun.open) await run.stop();
  }

  async stop(): Promise<void> {
    CrashRun.open.delete(this);
    if (this.worker) await stopWorker(this.worker);
    this.worker = undefined;
  }

  /** Starts a worker process on a fresh queue and the task on it. */
  static async start(client: Client, options: CrashRunOptions): Promise<CrashRun> {
    const repo = await makeRepo(options.files ?? calcFiles);
    const scriptFile = path.join(await makeTempDir(), 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: options.coder, reviewer: options.reviewer ?? [] }));
    const taskQueue = uniqueId('crash');
    const plainEnv = await workerProcessEnv(taskQueue);
    const env = options.slowGit ? await withSlowGit(plainEnv, options.slowGit) : plainEnv;
    const worker = await spawnWorker(env);
    const spec = taskSpec({
      repo,
      goal: 'Fix add in calc.py',
      models: {
        coder: `scripted:${scriptFile}`,
        ...(options.reviewer ? { reviewer: `scripted:${scriptFile}` } : {}),
      },
      heartbeatTimeoutMs: TEST_HEARTBEAT_TIMEOUT_MS,
      ...options.spec,
    });
    const handle = await startTestTask(client, taskQueue, spec);
    return new CrashRun(handle, repo, `taskloop/${spec.id}`, worker, env);
  }

  waitFor(what: string, predicate: (state: TaskState) => boolean, timeoutMs = 90_000): Promise<TaskState> {
    return waitForState(this.handle, what, predicate, timeoutMs);
  }

  /** Kills the worker (alone, or with its whole process group), then starts one on the same host or as another. */
  async crash(mode: KillMode, restartAs: 'same' | 'other' | 'none' = 'same'): Promise<void> {
    if (!this.worker) throw new Error('no worker is running to crash');
    this.killed.push(...(await killWorker(this.worker, mode)));
    this.lastKillAt = Date.now();
    this.worker = undefined;
    if (restartAs === 'none') return;
    await this.restart(restartAs);
  }

  /** True once a file named `name` exists anywhere in the first worker's work folder (e.g. a step's saved result). */
  async workDirHolds(name: string): Promise<boolean> {
    const workDir = this.envs[0]?.TASKLOOP_WORK_DIR ?? '?';
    const files = await readdir(workDir, { recursive: true }).catch(() => []);
    return files.some((file) => path.basename(file) === name);
  }

  /** True while one of the running worker's descendants has `fragment` in its command line (e.g. `worktree add`). */
  async workerRuns(fragment: string): Promise<boolean> {
    if (!this.worker) return false;
    const lines = await Promise.all(
      (await descendantsOf(this.worker.pid)).map(({ pid }) =>
        readFile(`/proc/${pid}/cmdline`, 'utf8').then(
          (line) => line.split('\0').join(' '),
          () => '',
        ),
      ),
    );
    return lines.some((line) => line.includes(fragment));
  }

  /** True once the running worker has a child process (a test run it started). */
  async workerHasChildren(): Promise<boolean> {
    return this.worker ? (await descendantsOf(this.worker.pid)).length > 0 : false;
  }

  async restart(as: 'same' | 'other'): Promise<void> {
    const first = this.envs[0] ?? {};
    const env = as === 'same' ? first : await workerProcessEnv(first.TASKLOOP_TASK_QUEUE ?? '');
    if (as === 'other') this.envs.push(env);
    this.worker = await spawnWorker(env);
    this.workers.push(this.worker);
  }

  /** Why a run has no outcome yet: its state, its pending activities and the tail of each worker's output. */
  private async stallReport(timeoutMs: number): Promise<Error> {
    const description = await this.handle.describe().catch((error: Error) => error.message);
    const pending =
      typeof description === 'string'
        ? description
        : JSON.stringify(
            description.raw.pendingActivities?.map((activity) => ({
              type: activity.activityType?.name,
              state: activity.state,
              attempt: activity.attempt,
              lastFailure: activity.lastFailure?.message,
              lastWorker: activity.lastWorkerIdentity,
            })),
          );
    const state = await this.handle.query(stateQuery).catch((error: Error) => error.message);
    const logs = await Promise.all(this.workers.map((worker) => workerLogTail(worker)));
    // The history as the SDK's replayer reads it: a stall in a workflow task replays from it.
    const historyFile = path.join(await makeTempDir(), 'history.json');
    await this.handle
      .fetchHistory()
      .then((history) => writeFile(historyFile, historyToJSON(history)))
      .catch((error: Error) => writeFile(historyFile, error.message));
    return new Error(
      `no outcome after ${timeoutMs} ms\nstate: ${JSON.stringify(state)}\npending: ${pending}\nhistory: ${historyFile}\n${logs.join('\n---\n')}`,
    );
  }

  /** Waits for the outcome, checks everything a crash may leave behind, stops the worker; returns seconds to recover. */
  async finish(expected: TaskOutcome['status'], timeoutMs = 100_000): Promise<number> {
    try {
      const result = this.handle
        .result()
        .catch((error: { cause?: { details?: unknown[] } }) => error.cause?.details?.[0]) as Promise<TaskOutcome>;
      // A run with no outcome in time reports why; the timer goes with the outcome, so a passing run reports nothing.
      let stallTimer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        stallTimer = setTimeout(() => void this.stallReport(timeoutMs).then(reject, reject), timeoutMs);
      });
      const outcome = await Promise.race([result, stalled]).finally(() => clearTimeout(stallTimer));
      const recoverySeconds = (Date.now() - this.lastKillAt) / 1000;
      // On a miss, the attempts' nodes, classes and reasons say why (CI keeps nothing else).
      expect(outcome?.status, JSON.stringify({ reason: outcome?.reason, attempts: outcome?.attempts })).toBe(expected);
      const commits = await taskloopCommits(this.repo, this.branch).catch(() => []);
      expect(commits).toHaveLength(expected === 'COMPLETED' ? 1 : 0);
      // The repository lists only its own checkout, and no worktree folder is left on any host.
      expect(
        (await git(this.repo, 'worktree', 'list', '--porcelain'))
          .split('\n')
          .filter((line) => line.startsWith('worktree ')),
      ).toHaveLength(1);
      for (const env of this.envs) {
        const workDir = env.TASKLOOP_WORK_DIR ?? '?';
        expect(await readdir(path.join(workDir, 'worktrees')).catch(() => [])).toEqual([]);
        expect(await leftoverProcesses(this.killed, workDir)).toEqual([]);
      }
      const events = (await Promise.all(this.envs.map((env) => readEvents(env.TASKLOOP_EVENTS_FILE ?? '?')))).flat();
      const ids = events.map((event) => event.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
      return recoverySeconds;
    } finally {
      await this.stop();
    }
  }
}

/** Recovery times measured in this file, printed at the end for the Reliability section of docs/many-machines.md. */
export const recoveries: string[] = [];
export const recordRecovery = (name: string, seconds: number) =>
  recoveries.push(`recovery ${name}: ${seconds.toFixed(1)} s`);
