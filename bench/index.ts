// `npm run bench [-- --runs N] [-- --only overhead,events]`: runs the benchmarks and prints every figure of the
// lean-orchestration targets beside its target and the machine's load average, as a markdown table for
// docs/benchmarks.md, then the detail sections. Nothing here asserts timings.
import path from 'node:path';
import { claimsBenchmark } from './claims.js';
import { codecBenchmark } from './codec.js';
import { cliBenchmark } from './cli.js';
import { concurrencyBenchmark } from './concurrency.js';
import { eventsBenchmark } from './events.js';
import { formatFigures, loadAverage } from './lib/figures.js';
import { landingBenchmark } from './landing.js';
import { parseBenchArgs } from './lib/args.js';
import type { Benchmark, Figure } from './lib/types.js';
import { overheadBenchmark } from './overhead.js';
import { probeBenchmark } from './probe-row.js';
import { rssBenchmark } from './rss.js';
import { searchBenchmark } from './search.js';
import { soakBenchmark } from './soak-row.js';
import { startEphemeralStack, type EphemeralStack } from '../workers/ephemeral-stack.js';

const benchmarks: Benchmark[] = [
  overheadBenchmark,
  eventsBenchmark,
  concurrencyBenchmark,
  rssBenchmark,
  cliBenchmark,
  searchBenchmark,
  claimsBenchmark,
  codecBenchmark,
  soakBenchmark,
  landingBenchmark,
  probeBenchmark,
];

async function main(): Promise<number> {
  const parsed = parseBenchArgs(
    process.argv.slice(2),
    benchmarks.map((bench) => bench.name),
  );
  if (!parsed.success) {
    console.error(`bench: ${parsed.error}`);
    return 2;
  }
  const { runs, only } = parsed.data;
  const log = (line: string) => console.error(`[bench] ${line}`);
  let stack: Promise<EphemeralStack> | undefined;
  const context = {
    log,
    cacheDir: path.resolve('.taskloop', 'bench-cache'),
    stack: () => (stack ??= startEphemeralStack(log)),
  };
  const startLoad = loadAverage();
  const rows: { bench: string; figure: Figure; load: string }[] = [];
  const sections: string[] = [];
  try {
    for (const bench of benchmarks.filter((candidate) => !only || only.includes(candidate.name))) {
      const benchRuns = runs ?? bench.defaultRuns;
      log(`${bench.name}: ${benchRuns} timed run(s); load average ${loadAverage()}`);
      const result = await bench.run({ ...context, runs: benchRuns });
      const load = loadAverage().split(' / ')[0] ?? '';
      rows.push(...result.figures.map((figure) => ({ bench: `${bench.name} (${benchRuns} runs)`, figure, load })));
      sections.push(...result.sections);
    }
  } finally {
    if (stack) await (await stack).stop();
  }
  console.log(`Load average at start: ${startLoad}; at end: ${loadAverage()}.\n`);
  console.log(formatFigures(rows));
  for (const section of sections) console.log(`\n${section}`);
  return 0;
}

// Set exitCode rather than exit(), so the process ends only once every server and worker has shut down.
main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
