// Order statistics over timing samples (milliseconds).

function sorted(samples: number[]): number[] {
  if (samples.length === 0) throw new Error('no samples: a benchmark must record at least one run');
  return [...samples].sort((a, b) => a - b);
}

/** The middle sample; the mean of the two middle ones for an even count. */
export function median(samples: number[]): number {
  const values = sorted(samples);
  const mid = Math.floor(values.length / 2);
  return values.length % 2 === 1
    ? (values[mid] as number)
    : ((values[mid - 1] as number) + (values[mid] as number)) / 2;
}
