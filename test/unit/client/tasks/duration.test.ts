import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../../client/tasks/duration.js';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['500ms', 500],
    ['30s', 30_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1_500],
    ['2d', 172_800_000],
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ success: true, data: ms });
  });

  it.each(['', '10', 'ten minutes', '10 m', '-5s', '5x', 'm10'])('refuses %j with an example of what works', (text) => {
    const result = parseDuration(text);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toContain('like 30s, 10m, 1h');
  });
});
