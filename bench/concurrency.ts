// bench/concurrency: 20 tasks whose tests take 1 s, started at once, on one worker process and on two worker
// processes with separate work folders, against 20 plain scripts in parallel; wall time and CPU per task. For
// reference, the same 20 plain attempts as Temporal's floor (bench/floor: their steps as three bare activities).
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { atMost, ms, reference, seconds, times } from './lib/figures.js';
import { median } from './lib/stats.js';
import type { BenchContext, Benchmark, BenchResult } from './lib/types.js';
import { startFloorWorker } from './floor/floor-worker.js';
import { startWorkerProcess, type WorkerProcess } from './lib/worker-process.js';
import { startPlainRunner } from './overhead/plain-runner.js';
import { calcProject, type BenchProject } from './overhead/projects.js';
import { startAndAwaitTask } from './overhead/taskloop-run.js';

const TASKS = 20;
const slowTest = { 'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(1)\n' };

interface Batch {
  ms: number;
  cpuMs: number;
  /** CPU used by the whole machine meanwhile (every process: server, bench, workers), in ms. */
  machineCpuMs: number;
}

/** Busy CPU of the whole machine since boot (user, nice, system, irq, softirq, steal), in ms. */
async function machineCpuMs(): Promise<number> {
  const [user, nice, system, , , irq, softirq, steal] = (await readFile('/proc/stat', 'utf8'))
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return [user, nice, system, irq, softirq, steal].reduce((sum = 0, value = 0) => sum + value, 0) * 10;
}

async function timeBatch(cpu: () => Promise<number>, batch: () => Promise<unknown>): Promise<Batch> {
  const [cpuBefore, machineBefore, started] = [await cpu(), await machineCpuMs(), performance.now()];
  await batch();
  const ms = performance.now() - started;
  return { ms, cpuMs: (await cpu()) - cpuBefore, machineCpuMs: (await machineCpuMs()) - machineBefore };
}

async function runTasks(
  context: BenchContext,
  taskQueue: string,
  projects: BenchProject[],
  tag: string,
): Promise<void> {
  const stack = await context.stack();
  const runs = await Promise.all(
    projects.map((project, index) =>
      // Start and result only: the plain batch reads nothing afterwards either.
      startAndAwaitTask({ client: stack.client, taskQueue, project, taskId: `${tag}-${index}` }),
    ),
  );
  const bad = runs.filter((run) => run.outcome?.status !== 'COMPLETED');
  if (bad.length > 0)
    throw new Error(
      `${bad.length} of ${runs.length} concurrent tasks did not complete: ${bad[0]?.outcome?.reason ?? 'workflow failed'}`,
    );
}

const sumCpu = (workers: WorkerProcess[]) => async () =>
  (await Promise.all(workers.map((worker) => worker.cpuMs()))).reduce((a, b) => a + b, 0);

export const concurrencyBenchmark: Benchmark = {
  name: 'concurrency',
  // Three interleaved rounds, the median of each: one round's ratio moved from 1.33x to 1.70x between two runs of
  // the same code on this shared machine.
  defaultRuns: 3,
  async run(context): Promise<BenchResult> {
    const stack = await context.stack();
    const projects = await Promise.all(Array.from({ length: TASKS }, () => calcProject(slowTest)));
    const workers: WorkerProcess[] = [];
    // The plain scripts run side by side in a small process of their own, as users' scripts would.
    const plainRunner = await startPlainRunner();
    const floor = await startFloorWorker({
      client: stack.client,
      address: stack.address,
      tag: `cc${Date.now().toString(36)}`,
    });
    const start = (name: string, queue: string) =>
      startWorkerProcess({
        address: stack.address,
        taskQueue: queue,
        workDir: path.join(stack.workDir, name),
        hostId: `bench-${name}`,
        log: context.log,
      }).then((worker) => {
        workers.push(worker);
        return worker;
      });
    try {
      const tag = `cc-${Date.now().toString(36)}`;
      const one = await start('one', `${tag}-one`);
      const pair = [await start('pair-a', `${tag}-pair`), await start('pair-b', `${tag}-pair`)];
      const plainBatch = (run: string) =>
        Promise.all(
          projects.map((project, index) =>
            plainRunner.run(project, path.join(stack.workDir, 'plain', `${run}-${index}`), `${run}-${index}`),
          ),
        );
      const floorBatch = (run: string) =>
        Promise.all(
          projects.map((project, index) =>
            floor.run(project, path.join(stack.workDir, 'floor', `${run}-${index}`), `${run}-${index}`),
          ),
        );
      context.log('concurrency: warm-up (2 tasks per queue, one plain batch, one floor batch)');
      await runTasks(context, `${tag}-one`, projects.slice(0, 2), `${tag}-w1`);
      await runTasks(context, `${tag}-pair`, projects.slice(0, 2), `${tag}-w2`);
      await plainBatch(`${tag}-wp`);
      await floorBatch(`${tag}-wf`);
      const single: Batch[] = [];
      const double: Batch[] = [];
      const plain: Batch[] = [];
      const floored: Batch[] = [];
      // Interleaved: one worker, plain, two workers, floor; per run.
      for (let run = 1; run <= context.runs; run += 1) {
        single.push(
          await timeBatch(
            () => one.cpuMs(),
            () => runTasks(context, `${tag}-one`, projects, `${tag}-r${run}-one`),
          ),
        );
        plain.push(
          await timeBatch(
            () => plainRunner.cpuMs(),
            () => plainBatch(`${tag}-r${run}-p`),
          ),
        );
        double.push(
          await timeBatch(sumCpu(pair), () => runTasks(context, `${tag}-pair`, projects, `${tag}-r${run}-two`)),
        );
        // Only the whole machine's CPU is reported for the floor: its process tree holds its unsandboxed tests.
        floored.push(
          await timeBatch(
            async () => 0,
            () => floorBatch(`${tag}-r${run}-f`),
          ),
        );
        context.log(
          `concurrency run ${run}/${context.runs}: one worker ${seconds(single.at(-1)?.ms ?? 0)}, plain ${seconds(plain.at(-1)?.ms ?? 0)}, two workers ${seconds(double.at(-1)?.ms ?? 0)}, floor ${seconds(floored.at(-1)?.ms ?? 0)}`,
        );
      }
      const wall = (batches: Batch[]) => median(batches.map((batch) => batch.ms));
      const cpuPerTask = (batches: Batch[]) => median(batches.map((batch) => batch.cpuMs / TASKS));
      const machinePerTask = (batches: Batch[]) => median(batches.map((batch) => batch.machineCpuMs / TASKS));
      return {
        figures: [
          atMost(
            `${TASKS} tasks, 1 s tests, concurrency ${TASKS}, one worker / plain parallel`,
            wall(single) / wall(plain),
            1.3,
            times,
          ),
          reference(`  one worker / plain parallel`, `${seconds(wall(single))} / ${seconds(wall(plain))}`),
          // The whole machine's CPU: a process tree's own figures miss the sandboxed tests (bubblewrap's PID
          // namespace keeps their CPU out of the worker's reaped-children times), so this is the honest upper bound.
          atMost(
            'CPU per task, one worker, whole machine (server and bench included)',
            machinePerTask(single),
            900,
            ms,
          ),
          reference('  CPU per task, plain parallel script, whole machine', ms(machinePerTask(plain))),
          reference(
            "  counted over the worker's / the plain script's process tree (misses bwrap's sandboxed tests)",
            `${ms(cpuPerTask(single))} / ${ms(cpuPerTask(plain))}`,
          ),
          reference(
            `two workers, separate work folders / plain parallel`,
            `${seconds(wall(double))} / ${seconds(wall(plain))} = ${times(wall(double) / wall(plain))}`,
          ),
          reference('  CPU per task, two workers, whole machine', ms(machinePerTask(double))),
          reference(
            'Temporal floor (the plain steps as 3 bare activities, one worker) / plain parallel',
            `${seconds(wall(floored))} / ${seconds(wall(plain))} = ${times(wall(floored) / wall(plain))}`,
          ),
          reference('  CPU per task, Temporal floor, whole machine', ms(machinePerTask(floored))),
        ],
        sections: [
          `The concurrency bench ran on ${os.cpus().length} cores; each task has its own repository, for taskloop and the plain script alike.`,
        ],
      };
    } finally {
      await floor.stop();
      await plainRunner.stop();
      for (const worker of workers) await worker.stop();
      for (const project of projects) await project.cleanup();
    }
  },
};
