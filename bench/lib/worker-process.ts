// A `taskloop worker` process (the bin, as a user starts it) on its own queue and work folder, with its CPU
// time (its whole process tree's, from /proc) and its resident memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker ${options.hostId} did not connect within 120 s:\n${output}`)),
      120_000,
    );
    const onData = (data: Buffer) => {
      output += data.toString();
      if (output.includes('connected to')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker ${options.hostId} exited (${code}) before connecting:\n${output}`));
    });
  });
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
