// A `taskloop worker` process (the bin, as a user starts it) on its own queue and work folder, with its CPU
// time (its own plus its reaped children's, from /proc) and its resident memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface WorkerProcess {
  pid: number;
  /** user + system CPU of the worker and of the children it has waited for (pytest, git), in ms. */
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
      // Fields after the command name: utime is the 14th field, stime 15th, cutime 16th, cstime 17th.
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) * TICK_MS;
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
