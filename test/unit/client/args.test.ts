import { describe, expect, it } from 'vitest';
import { durationFlag } from '../../../client/args.js';

describe('duration flags', () => {
  it('reads every duration form through the one parser, 1h30m included', () => {
    expect(durationFlag('worker', 'grace', '1h30m', 30_000)).toBe(5_400_000);
    expect(durationFlag('worker', 'grace', '500ms', 30_000)).toBe(500);
    expect(durationFlag('worker', 'grace', undefined, 30_000)).toBe(30_000);
  });

  it('refuses a bad value naming the command, the flag and the forms that work', () => {
    expect(() => durationFlag('worker', 'grace', '90', 30_000)).toThrow(
      /^taskloop worker: --grace: expected a duration like 30s, 10m, 1h or 1h30m \(or 0\), got "90"$/,
    );
    expect(() => durationFlag('schedule', 'every', '10ms', 0, 1000)).toThrow(
      /--every must be at least 1000 ms, got "10ms"/,
    );
  });
});
