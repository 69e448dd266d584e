// Crashing a `taskloop worker` the hard way and checking what it left behind: processes (by pid and by working
// folder) and worktrees. The worker runs in its own process group, so a whole-group kill spares the test.
import { execa, type ResultPromise } from 'execa';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { taskloopBin } from './cli.js';

export interface WorkerProcess {
  child: ResultPromise;
  pid: number;
  /** Everything the worker printed, kept in the run's temporaries: a crash test that stalls shows its tail. */
  logFile: string;
}

/** A worker that does not say it serves within this long is reported with its output, not waited on forever. */
const WORKER_READY_TIMEOUT_MS = 60_000;

export type KillMode = 'worker' | 'group';

/** `taskloop worker` as the leader of its own process group, ready once it says what it serves. */
export async function spawnWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = execa('node', [taskloopBin, 'worker', '--grace', '1s'], {
    env,
    all: true,
    reject: false,
    detached: true,
  });
  const logFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'crash-worker-')), 'output.log');
  const log = createWriteStream(logFile);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`taskloop worker not ready after ${WORKER_READY_TIMEOUT_MS} ms:\n${output}`)),
      WORKER_READY_TIMEOUT_MS,
    );
    child.all?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      output += chunk.toString();
      if (output.includes('serving task queues')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void child.then(() => {
      clearTimeout(timer);
      reject(new Error(`taskloop worker exited before it was ready:\n${output}`));
    });
  });
  if (child.pid === undefined) throw new Error('the worker has no pid');
  return { child, pid: child.pid, logFile };
}

/** The last lines a worker printed, for the message of a crash test that stalled. */
export async function workerLogTail(worker: { logFile: string }, lines = 40): Promise<string> {
  const text = await readFile(worker.logFile, 'utf8').catch(() => '(no log)');
  return `${worker.logFile}:\n${text.split('\n').slice(-lines).join('\n')}`;
}

/** Process ids with their parent, start time and working folder, read from /proc. */
async function processTable(): Promise<{ pid: number; ppid: number; start: string; cwd?: string }[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const rows = await Promise.all(
    pids.map(async (pid) => {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
      if (!stat) return undefined;
      // Fields after the command name (which may hold spaces) start at ")"; ppid is the 2nd, start time the 20th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
      return { pid: Number(pid), ppid: Number(fields[1]), start: fields[19] ?? '', cwd };
    }),
  );
  return rows.filter((row): row is NonNullable<typeof row> => row !== undefined);
}

/** Every descendant of `pid` now, with its start time (so a reused pid is not mistaken for a survivor). */
export async function descendantsOf(pid: number): Promise<{ pid: number; start: string }[]> {
  const table = await processTable();
  const found: { pid: number; start: string }[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const row of table.filter((candidate) => candidate.ppid === parent)) {
      found.push({ pid: row.pid, start: row.start });
      queue.push(row.pid);
    }
  }
  return found;
}

/** Kills the worker alone (SIGKILL) or its whole process group; returns the descendants it had at that moment. */
export async function killWorker(worker: WorkerProcess, mode: KillMode): Promise<{ pid: number; start: string }[]> {
  const descendants = await descendantsOf(worker.pid);
  if (mode === 'group') process.kill(-worker.pid, 'SIGKILL');
  else worker.child.kill('SIGKILL');
  // The promise settles once the worker exited and its output pipes closed: a process still holding them is named.
  const settled = await Promise.race([
    worker.child.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000).unref()),
  ]);
  if (!settled) {
    const alive = await leftoverProcesses(descendants);
    throw new Error(
      `killed worker ${worker.pid} not gone after 20 s; still alive of its descendants: ${alive.join(', ')}`,
    );
  }
  return descendants;
}

/** Processes among `known` still alive (same pid, same start time), and any whose working folder is inside `dir`. */
export async function leftoverProcesses(known: { pid: number; start: string }[], dir?: string): Promise<string[]> {
  const table = await processTable();
  const byPid = table
    .filter((row) => known.some((old) => old.pid === row.pid && old.start === row.start))
    .map((row) => `pid ${row.pid} (from the killed worker)`);
  const byCwd = table
    .filter((row) => dir !== undefined && row.cwd?.startsWith(dir))
    .map((row) => `pid ${row.pid} in ${row.cwd ?? '?'}`);
  return [...new Set([...byPid, ...byCwd])];
}

/**
 * The Python processes (pytest, as the sandbox runs it: `python -m pytest ...`) whose working folder is inside `dir`:
 * a test run of a worktree under a worker's work folder, found by what it really has (its cwd), not by its name.
 */
export async function pythonProcessesIn(dir: string): Promise<{ pid: number; cmdline: string }[]> {
  const inside = (await processTable()).filter((row) => row.cwd?.startsWith(dir));
  const rows = await Promise.all(
    inside.map(async ({ pid }) => ({
      pid,
      argv: await readFile(`/proc/${pid}/cmdline`, 'utf8').then(
        (line) => line.split('\0').filter(Boolean),
        () => [],
      ),
    })),
  );
  return rows
    .filter(({ argv }) => /^python[\d.]*$/.test(argv[0]?.split('/').pop() ?? ''))
    .map(({ pid, argv }) => ({ pid, cmdline: argv.join(' ') }));
}

/** Stops a worker started by spawnWorker gracefully, then makes sure its group is gone. */
export async function stopWorker(worker: WorkerProcess): Promise<void> {
  worker.child.kill('SIGTERM');
  await worker.child.catch(() => undefined);
}
