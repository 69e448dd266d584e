import { describe, expect, it } from 'vitest';
import { excludesZero, pairedBootstrapInterval, seededRandom, signTestPValue } from '../../../../domain/eval/stats.js';

describe('paired statistics', () => {
  it('computes the exact two-sided sign test', () => {
    expect(signTestPValue(0, 0)).toBe(1);
    expect(signTestPValue(5, 0)).toBeCloseTo(0.0625, 10);
    expect(signTestPValue(8, 2)).toBeCloseTo(0.109375, 10);
    expect(signTestPValue(3, 3)).toBe(1);
  });

  it('gives the same bootstrap interval for the same seed, and one that excludes 0 only for a clear lead', () => {
    const lead = [1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1];
    const first = pairedBootstrapInterval(lead, { seed: 7 });
    expect(pairedBootstrapInterval(lead, { seed: 7 })).toEqual(first);
    expect(excludesZero(first)).toBe(true);
    expect(excludesZero(pairedBootstrapInterval([1, -1, 0, 1, -1, 0], { seed: 7 }))).toBe(false);
    expect(pairedBootstrapInterval([0, 0, 0])).toEqual({ low: 0, high: 0, level: 0.95 });
  });

  it('draws a seeded stream in [0, 1)', () => {
    const a = seededRandom(1);
    const b = seededRandom(1);
    const values = Array.from({ length: 100 }, () => a());
    expect(values).toEqual(Array.from({ length: 100 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  });
});
