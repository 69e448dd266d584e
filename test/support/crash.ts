// Crashing a `taskloop worker` the hard way and checking what it left behind: processes (by pid and by working
// folder) and worktrees. The worker runs in its own process group, so a whole-group kill spares the test.
import { execa, type ResultPromise } from 'execa';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { taskloopBin } from './cli.js';

export interface WorkerProcess {
  child: ResultPromise;
  pid: number;
}

export type KillMode = 'worker' | 'group';

/** `taskloop worker` as the leader of its own process group, ready once it says what it serves. */
export async function spawnWorker(env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = execa('node', [taskloopBin, 'worker', '--grace', '1s'], {
    env,
    all: true,
    reject: false,
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('serving task queues')) resolve();
    });
    void child.then(() => reject(new Error(`taskloop worker exited before it was ready:\n${output}`)));
  });
  if (child.pid === undefined) throw new Error('the worker has no pid');
  return { child, pid: child.pid };
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
  await worker.child.catch(() => undefined);
  return descendants;
}

/** Processes among `known` still alive (same pid, same start time), and any whose working folder is inside `dir`. */
export async function leftoverProcesses(known: { pid: number; start: string }[], dir: string): Promise<string[]> {
  const table = await processTable();
  const byPid = table
    .filter((row) => known.some((old) => old.pid === row.pid && old.start === row.start))
    .map((row) => `pid ${row.pid} (from the killed worker)`);
  const byCwd = table.filter((row) => row.cwd?.startsWith(dir)).map((row) => `pid ${row.pid} in ${row.cwd ?? '?'}`);
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
