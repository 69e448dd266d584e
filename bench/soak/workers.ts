// The soak's worker hosts: `taskloop worker` processes, each with its own TASKLOOP_HOME, work folder and host id,
// killed with SIGKILL and started again (the same host coming back); their CPU and memory sampled as they go.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { processTreeCpuMs } from '../lib/worker-process.js';

export interface SoakHost {
  hostId: string;
  home: string;
  workDir: string;
  /** Every pid this host's worker had (cgroups carry the pid in their names). */
  pids: number[];
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
}

export class SoakWorkers {
  readonly hosts: SoakHost[] = [];
  private readonly running = new Map<string, Running>();
  /** Last CPU seen per pid (a killed process's CPU is what was last sampled). */
  private readonly cpuByPid = new Map<number, number>();
  peakRssMb = 0;
  kills = 0;

  constructor(
    private readonly address: string,
    private readonly taskQueue: string,
    private readonly root: string,
  ) {}

  async start(count: number): Promise<void> {
    for (let index = 0; index < count; index++) {
      const home = path.join(this.root, `host-${index + 1}`);
      const host: SoakHost = { hostId: `soak-host-${index + 1}`, home, workDir: path.join(home, 'work'), pids: [] };
      this.hosts.push(host);
      await this.launch(host);
    }
  }

  private async launch(host: SoakHost): Promise<void> {
    await mkdir(host.workDir, { recursive: true });
    const logFile = path.join(host.home, `worker-${host.pids.length + 1}.log`);
    const fd = openSync(logFile, 'a');
    const child = spawn(process.execPath, [path.resolve('bin', 'taskloop.js'), 'worker', '--grace', '5s'], {
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: this.address,
        TASKLOOP_HOME: host.home,
        TASKLOOP_TASK_QUEUE: this.taskQueue,
        TASKLOOP_WORK_DIR: host.workDir,
        TASKLOOP_HOST_ID: host.hostId,
        TASKLOOP_EVENTS_FILE: path.join(host.home, 'events.jsonl'),
      },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    host.pids.push(child.pid as number);
    this.running.set(host.hostId, { child, exited });
    for (const deadline = Date.now() + 180_000; !(await readFile(logFile, 'utf8')).includes('serving task queues');) {
      if (child.exitCode !== null) throw new Error(`worker ${host.hostId} exited before serving; see ${logFile}`);
      if (Date.now() > deadline) throw new Error(`worker ${host.hostId} did not serve within 180 s; see ${logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** SIGKILL one host's worker (no graceful shutdown), then the same host starts again. */
  async killAndRestart(host: SoakHost): Promise<void> {
    await this.sample();
    const running = this.running.get(host.hostId);
    running?.child.kill('SIGKILL');
    await running?.exited;
    this.kills++;
    await this.launch(host);
  }

  async sample(): Promise<void> {
    for (const [, { child }] of this.running) {
      const pid = child.pid as number;
      const cpu = await processTreeCpuMs(pid);
      if (cpu > 0) this.cpuByPid.set(pid, Math.max(cpu, this.cpuByPid.get(pid) ?? 0));
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      this.peakRssMb = Math.max(this.peakRssMb, rss);
    }
  }

  cpuMs(): number {
    return [...this.cpuByPid.values()].reduce((sum, value) => sum + value, 0);
  }

  async stop(): Promise<void> {
    await this.sample();
    await Promise.all(
      [...this.running.values()].map(async ({ child, exited }) => {
        child.kill('SIGTERM');
        await exited;
      }),
    );
    this.running.clear();
  }
}
