// The probe as a bench row: the model's ceiling (instances where at least one of the coder's first replies, drawn
// alone by bench/probe/first_reply_draws.py, passes the tests) beside what the loop resolved on the same instances.
// The loop should reach what the model's replies hold; the row says when it falls short, naming the instances.
// Running the real model here takes an hour on 2 cores, so the row reads the figures recorded in
// bench/probe/recorded.json (from docs/eval-results.md); a new probe run updates that file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Benchmark, BenchResult } from './lib/types.js';

export interface ProbeRecord {
  source: string;
  model: string;
  instances: number;
  draws: number;
  passingDraws: number;
  /** Instances where at least one first reply passed. */
  ceiling: string[];
  /** Instances the loop resolved, on the same instances. */
  loopResolved: string[];
}

/** The row and its section: met when the loop resolved every instance of the ceiling. */
export function probeFigures(record: ProbeRecord): BenchResult {
  const short = record.ceiling.filter((instance) => !record.loopResolved.includes(instance));
  const beyond = record.loopResolved.filter((instance) => !record.ceiling.includes(instance));
  return {
    figures: [
      {
        name: `probe: the loop's resolved instances against the model's first-reply ceiling (${record.model}, ${record.instances} instances, recorded)`,
        value: `${record.loopResolved.length} resolved, ceiling ${record.ceiling.length}`,
        target: `>= ${record.ceiling.length} (every ceiling instance)`,
        met: short.length === 0,
      },
    ],
    sections: [
      [
        `Probe (${record.source}): ${record.passingDraws} of ${record.draws} first replies pass, on ${record.ceiling.length} of ${record.instances} instances (${record.ceiling.join(', ') || 'none'}); the loop resolved ${record.loopResolved.join(', ') || 'none'}.`,
        short.length > 0
          ? `The loop falls short of the ceiling on ${short.join(', ')}: the model's replies hold a fix there that the loop did not reach.`
          : 'The loop reaches the ceiling: every instance a first reply fixes, the loop resolved.',
        ...(beyond.length > 0 ? [`Beyond the ceiling (later turns or retries): ${beyond.join(', ')}.`] : []),
      ].join('\n'),
    ],
  };
}

export const probeBenchmark: Benchmark = {
  name: 'probe',
  defaultRuns: 1,
  async run() {
    const file = path.resolve('bench', 'probe', 'recorded.json');
    return probeFigures(JSON.parse(await readFile(file, 'utf8')) as ProbeRecord);
  },
};
