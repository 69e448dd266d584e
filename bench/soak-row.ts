// The soak at a small N for `npm run bench`: 10 scripted tasks per run on three worker hosts of the dev server, with
// worker kills and one server restart; the full soak is `npm run soak` (bench/soak.ts).
import type { Benchmark } from './lib/types.js';
import { runSoak } from './soak/run-soak.js';

const TASKS_PER_RUN = 10;

export const soakBenchmark: Benchmark = {
  name: 'soak',
  defaultRuns: 1,
  async run(context) {
    const tasks = TASKS_PER_RUN * context.runs;
    const { checks, figures } = await runSoak({
      tasks,
      workers: 3,
      projects: 2,
      server: 'dev',
      killEverySeconds: 30,
      timeoutMinutes: 30,
      log: context.log,
    });
    const failed = checks.filter((check) => !check.ok);
    const figure = (name: string) => figures.find(([key]) => key === name)?.[1] ?? '?';
    return {
      figures: [
        {
          name: `soak: ${tasks} tasks on 3 worker hosts, worker kills and a server restart (checks passed)`,
          value: `${checks.length - failed.length} of ${checks.length}`,
          target: `${checks.length} of ${checks.length}`,
          met: failed.length === 0,
        },
        { name: 'soak throughput (scripted tasks, dev server)', value: figure('throughput'), target: '' },
        { name: 'soak time to complete p50 / p95', value: figure('time to complete p50 / p95'), target: '' },
      ],
      sections: [
        ['Soak figures:', ...figures.map(([name, value]) => `- ${name}: ${value}`)].join('\n'),
        ...(failed.length
          ? [['Soak checks that failed:', ...failed.map((c) => `- ${c.name}: ${c.detail}`)].join('\n')]
          : []),
      ],
    };
  },
};
