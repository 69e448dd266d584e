// A `taskloop worker` process (the bin, as a user starts it) on its own queue and work folder, with its CPU
// time (its whole process tree's, from /proc) and its resident memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface WorkerProcess {
  pid: number;
  /** user + system CPU of the worker and its process tree (the spawn helper, pytest, git), in ms. */
  cpuMs(): Promise<number>;
  rssMb(): Promise<number>;
  stop(): Promise<void>;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux.

export async function startWorkerProcess(options: {
  address: string;
  taskQueue: string;
  workDir: string;
  hostId: string;
  log: (line: string) => void;
}): Promise<WorkerProcess> {
  // The worker logs to a file, as an operator's worker would (to a file or a journal): read through a pipe, its log
  // lines kept the bench process busy (10 to 21 ms of its CPU per task in a concurrent batch, against 2 to 3 ms for
  // the floor's batch, whose worker writes nothing), and that CPU counted as taskloop's in the whole machine's figure.
  // Beside the work folder, not in it: the worker owns what is inside.
  await mkdir(path.dirname(options.workDir), { recursive: true });
  const logFile = `${options.workDir}.worker.log`;
  const logFd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, [path.resolve('bin', 'taskloop.js'), 'worker', '--grace', '5s'], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: options.address,
      TEMPORAL_NAMESPACE: 'default',
      TASKLOOP_TASK_QUEUE: options.taskQueue,
      TASKLOOP_WORK_DIR: options.workDir,
      TASKLOOP_HOST_ID: options.hostId,
      TASKLOOP_EVENTS_FILE: path.join(options.workDir, 'events.jsonl'),
    },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const output = () => readFile(logFile, 'utf8').catch(() => '');
  for (const deadline = Date.now() + 120_000; !(await output()).includes('connected to');) {
    if (exitCode !== undefined)
      throw new Error(`worker ${options.hostId} exited (${exitCode}) before connecting:\n${await output()}`);
    if (Date.now() > deadline)
      throw new Error(`worker ${options.hostId} did not connect within 120 s:\n${await output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  options.log(`worker process ${options.hostId} (pid ${child.pid}) serves ${options.taskQueue}`);
  const pid = child.pid as number;
  return {
    pid,
    async cpuMs() {
      return processTreeCpuMs(pid);
    },
    async rssMb() {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** utime, stime, cutime and cstime of one process (ms), and its parent's pid; undefined once it is gone. */
async function readStat(pid: number): Promise<{ cpuMs: number; ppid: number } | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // Fields after the command name: ppid is the 4th field, utime the 14th, stime 15th, cutime 16th, cstime 17th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) * TICK_MS;
  return { cpuMs, ppid: Number(fields[1]) };
}

/**
 * CPU of `root` and of every live process below it. Each process's own figure includes the children it has waited
 * for, so a git command counts whether the worker or its spawn helper started it, and nothing counts twice.
 */
export async function processTreeCpuMs(root: number): Promise<number> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = new Map<number, { cpuMs: number; ppid: number }>();
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await readStat(pid);
      if (stat) stats.set(pid, stat);
    }),
  );
  const inTree = (pid: number): boolean => {
    for (let current: number | undefined = pid; current !== undefined && current > 1;) {
      if (current === root) return true;
      current = stats.get(current)?.ppid;
    }
    return false;
  };
  let total = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) total += stat.cpuMs;
  return total;
}
