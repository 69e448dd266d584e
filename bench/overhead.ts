// bench/overhead: one single-attempt task through taskloop (scripted coder, local dev server) against a plain
// script doing the same git and pytest steps; reports both medians, the ratio, and where taskloop's time goes.
import { formatMs, formatTable } from './lib/table.js';
import { median } from './lib/stats.js';
import type { Benchmark, BenchResult } from './lib/types.js';
import { timePlainRun } from './overhead/plain-run.js';
import { startEphemeralStack } from '../workers/ephemeral-stack.js';
import { timeTaskloopRun, type TaskloopRun } from './overhead/taskloop-run.js';

export const overheadBenchmark: Benchmark = {
  name: 'overhead',
  async run({ runs, log }): Promise<BenchResult> {
    const stack = await startEphemeralStack(log);
    try {
      const prefix = `ovh-${Date.now().toString(36)}`;
      log('warm-up: one untimed run of each');
      await timeTaskloopRun(stack, `${prefix}-warm`);
      await timePlainRun(stack.workDir, `${prefix}-warm`);

      const taskloop: TaskloopRun[] = [];
      const plain: number[] = [];
      // Interleaved, so drift in machine load hits both sides alike.
      for (let run = 1; run <= runs; run += 1) {
        taskloop.push(await timeTaskloopRun(stack, `${prefix}-${run}`));
        plain.push(await timePlainRun(stack.workDir, `${prefix}-${run}`));
        log(`run ${run}/${runs}: taskloop ${formatMs(taskloop.at(-1)?.ms ?? 0)} ms, plain ${formatMs(plain.at(-1) ?? 0)} ms`);
      }
      const taskloopMs = taskloop.map((run) => run.ms);
      return {
        rows: [
          { benchmark: 'overhead: taskloop (1 attempt)', samples: taskloopMs, ratio: median(taskloopMs) / median(plain) },
          { benchmark: 'overhead: plain script (same steps)', samples: plain, ratio: 1 },
        ],
        sections: [formatBreakdown(taskloop)],
      };
    } finally {
      await stack.stop();
    }
  },
};

/** Medians per run of each activity, of the workflow's time outside activities, and of the client round trip. */
function formatBreakdown(runs: TaskloopRun[]): string {
  const types = [...new Set(runs.flatMap((run) => [...run.times.activityMs.keys()]))];
  const rows = types.map((type) => [
    `activity ${type}`,
    String(median(runs.map((run) => run.times.activityCalls.get(type) ?? 0))),
    formatMs(median(runs.map((run) => run.times.activityMs.get(type) ?? 0))),
  ]);
  const activitySum = (run: TaskloopRun) => [...run.times.activityMs.values()].reduce((sum, ms) => sum + ms, 0);
  rows.push(['workflow tasks and queueing (workflow span minus activities)', '', formatMs(median(runs.map((run) => run.times.workflowMs - activitySum(run))))]);
  rows.push(['client start and result delivery (wall minus workflow span)', '', formatMs(median(runs.map((run) => run.ms - run.times.workflowMs)))]);
  rows.push(['total (wall clock, start -> result)', '', formatMs(median(runs.map((run) => run.ms)))]);
  const table = formatTable(['where taskloop time goes (median per run)', 'calls', 'ms'], rows, [1, 2]);
  return `${table}\n\nActivity time is scheduled -> completed from the workflow history, so it includes task-queue pickup; medians do not add up exactly.`;
}
