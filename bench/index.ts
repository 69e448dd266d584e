// `npm run bench [-- --runs N] [-- --only overhead]`: runs the benchmarks and prints a table. Nothing here asserts timings.
import { parseBenchArgs } from './lib/args.js';
import { summarizeSamples } from './lib/stats.js';
import { formatMs, formatTable } from './lib/table.js';
import type { Benchmark, BenchResult } from './lib/types.js';
import { coderSearchBenchmark } from './coder-search.js';
import { overheadBenchmark } from './overhead.js';

const benchmarks: Benchmark[] = [overheadBenchmark, coderSearchBenchmark];

function formatSummary(results: BenchResult[]): string {
  const rows = results.flatMap((result) =>
    result.rows.map((row) => {
      const summary = summarizeSamples(row.samples);
      return [row.benchmark, String(summary.runs), formatMs(summary.median), formatMs(summary.p90), formatMs(summary.min), formatMs(summary.max), row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x`];
    }),
  );
  return formatTable(['benchmark', 'runs', 'median ms', 'p90 ms', 'min ms', 'max ms', 'ratio'], rows, [1, 2, 3, 4, 5, 6]);
}

async function main(): Promise<number> {
  const parsed = parseBenchArgs(process.argv.slice(2), benchmarks.map((bench) => bench.name));
  if (!parsed.success) {
    console.error(`bench: ${parsed.error}`);
    return 2;
  }
  const { runs, only } = parsed.data;
  const log = (line: string) => console.error(`[bench] ${line}`);
  const results: BenchResult[] = [];
  for (const bench of benchmarks.filter((candidate) => !only || candidate.name === only)) {
    log(`${bench.name}: ${runs} timed run(s) after one warm-up`);
    results.push(await bench.run({ runs, log }));
  }
  console.log(formatSummary(results));
  for (const section of results.flatMap((result) => result.sections)) console.log(`\n${section}`);
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
