// Order statistics over timing samples (milliseconds).

function sorted(samples: number[]): number[] {
  if (samples.length === 0) throw new Error('no samples: a benchmark must record at least one run');
  return [...samples].sort((a, b) => a - b);
}

/** The middle sample; the mean of the two middle ones for an even count. */
export function median(samples: number[]): number {
  const values = sorted(samples);
  const mid = Math.floor(values.length / 2);
  return values.length % 2 === 1 ? (values[mid] as number) : ((values[mid - 1] as number) + (values[mid] as number)) / 2;
}

/** Nearest-rank percentile (p in 0..100); with few runs p90 is simply the slowest or second slowest. */
export function percentile(samples: number[], p: number): number {
  const values = sorted(samples);
  const rank = Math.max(1, Math.ceil((p / 100) * values.length));
  return values[rank - 1] as number;
}

export interface SampleSummary {
  runs: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

export function summarizeSamples(samples: number[]): SampleSummary {
  const values = sorted(samples);
  return { runs: values.length, median: median(values), p90: percentile(values, 90), min: values[0] as number, max: values.at(-1) as number };
}
