// What every benchmark returns to bench/index.ts: figures (each beside its target) and optional detail sections.
import type { EphemeralStack } from '../../workers/ephemeral-stack.js';

export interface Figure {
  /** What was measured, e.g. "added time per attempt (toolz, 192 tests)". */
  name: string;
  /** The measured value as printed, e.g. "+412 ms" or "1.84x". */
  value: string;
  /** The target, e.g. "<= 300 ms"; empty for a reference figure. */
  target: string;
  /** Whether the target is met; undefined for a reference figure. */
  met?: boolean;
}

export interface BenchResult {
  figures: Figure[];
  /** Extra tables or notes printed after the summary (e.g. samples, where the time goes). */
  sections: string[];
}

export interface BenchContext {
  runs: number;
  log: (line: string) => void;
  /** The shared dev server and in-process worker, started on first use. */
  stack(): Promise<EphemeralStack>;
  /** Folder kept between bench runs for fetched or generated inputs (.taskloop/bench-cache). */
  cacheDir: string;
}

export interface Benchmark {
  name: string;
  /** Timed runs when --runs is not given (heavy benchmarks take fewer). */
  defaultRuns: number;
  run(context: BenchContext): Promise<BenchResult>;
}
