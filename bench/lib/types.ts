// What every benchmark returns to bench/index.ts: timed rows for the summary table and optional extra sections.

export interface BenchRow {
  benchmark: string;
  samples: number[];
  /** This row's median over the baseline's median; omitted on the baseline itself. */
  ratio?: number;
}

export interface BenchResult {
  rows: BenchRow[];
  /** Extra tables or notes printed after the summary (e.g. where the time goes). */
  sections: string[];
}

export interface Benchmark {
  name: string;
  run(options: { runs: number; log: (line: string) => void }): Promise<BenchResult>;
}
