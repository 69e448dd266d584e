// bench/rss: a worker process's resident memory before and after 3 attempts whose failing tests print 50 MB each.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { atMost, megabytes, reference, times } from './lib/figures.js';
import { median } from './lib/stats.js';
import type { Benchmark, BenchResult } from './lib/types.js';
import { startWorkerProcess } from './lib/worker-process.js';
import { fixTurns } from '../test/support/calc-project.js';
import { calcProject } from './overhead/projects.js';
import { runTaskloopTask } from './overhead/taskloop-run.js';

const ATTEMPTS = 3;
const MEGABYTES = 50;
// 50 MB of 100-byte lines, then a failure: pytest reports the captured output (and puts it in its JUnit XML).
const loudTest = {
  'tests/test_loud.py': `import sys\n\n\ndef test_loud():\n    line = 'x' * 99 + '\\n'\n    for _ in range(${MEGABYTES * 10_000}):\n        sys.stdout.write(line)\n    assert False, 'fails on purpose'\n`,
};

export const rssBenchmark: Benchmark = {
  name: 'rss',
  defaultRuns: 1,
  async run(context): Promise<BenchResult> {
    const stack = await context.stack();
    const quiet = await calcProject();
    const loud = await calcProject(loudTest, undefined, Array.from({ length: ATTEMPTS }, () => fixTurns()).flat());
    const tag = `rss-${Date.now().toString(36)}`;
    const samples: { before: number; after: number }[] = [];
    try {
      // A fresh worker per run, so "before" is always a worker that has run the loop once with quiet tests.
      for (let run = 1; run <= context.runs; run += 1) {
        const queue = `${tag}-r${run}`;
        const worker = await startWorkerProcess({
          address: stack.address,
          taskQueue: queue,
          workDir: path.join(stack.workDir, queue),
          hostId: `bench-${queue}`,
          log: context.log,
        });
        try {
          await runTaskloopTask({ client: stack.client, taskQueue: queue, project: quiet, taskId: `${queue}-quiet` });
          await sleep(1000);
          const before = await worker.rssMb();
          // One task whose attempts all fail on the loud test: ATTEMPTS attempts of 50 MB each.
          const result = await runTaskloopTask({
            client: stack.client,
            taskQueue: queue,
            project: loud,
            taskId: `${queue}-loud`,
            spec: { maxRetries: ATTEMPTS - 1 },
          });
          if (result.outcome?.status === 'COMPLETED')
            throw new Error('the loud task passed; its test should fail on purpose');
          await sleep(2000);
          samples.push({ before, after: await worker.rssMb() });
          context.log(
            `rss run ${run}/${context.runs}: ${megabytes(before)} -> ${megabytes(samples.at(-1)?.after ?? 0)}`,
          );
        } finally {
          await worker.stop();
        }
      }
      return {
        figures: [
          atMost(
            `worker RSS after ${ATTEMPTS} attempts x ${MEGABYTES} MB of test output / before`,
            median(samples.map(({ before, after }) => after / before)),
            1.2,
            times,
          ),
          reference(
            '  worker RSS before -> after',
            samples.map(({ before, after }) => `${megabytes(before)} -> ${megabytes(after)}`).join('; '),
          ),
        ],
        sections: [],
      };
    } finally {
      await quiet.cleanup();
      await loud.cleanup();
    }
  },
};
