// Paired comparisons of two arms on the instances both ran: the exact two-sided sign test and a seeded paired
// bootstrap interval of the mean difference. Deterministic: the same inputs and seed give the same figures.

/** A small, fast 32-bit generator (mulberry32): a seeded stream in [0, 1) with no global state. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function binomialCoefficient(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/** Two-sided exact sign test p-value for `wins` against `losses` (ties dropped); 1 when there is no untied pair. */
export function signTestPValue(wins: number, losses: number): number {
  const n = wins + losses;
  if (n === 0) return 1;
  const k = Math.min(wins, losses);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += binomialCoefficient(n, i);
  return Math.min(1, (2 * tail) / 2 ** n);
}

export interface Interval {
  low: number;
  high: number;
  /** e.g. 0.95. */
  level: number;
}

/** Percentile interval of the mean of `diffs` over `resamples` bootstrap resamples drawn with `seed`. */
export function pairedBootstrapInterval(
  diffs: readonly number[],
  options: { seed?: number; resamples?: number; level?: number } = {},
): Interval {
  const level = options.level ?? 0.95;
  if (diffs.length === 0) return { low: 0, high: 0, level };
  const random = seededRandom(options.seed ?? 42);
  const resamples = options.resamples ?? 10_000;
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < diffs.length; i++) sum += diffs[Math.floor(random() * diffs.length)] ?? 0;
    means.push(sum / diffs.length);
  }
  means.sort((a, b) => a - b);
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))] ?? 0;
  return { low: at((1 - level) / 2), high: at(1 - (1 - level) / 2), level };
}

/** Whether an interval lies wholly on one side of 0. */
export const excludesZero = (interval: Interval): boolean => interval.low > 0 || interval.high < 0;
