import { describe, expect, it } from 'vitest';
import { decideServerWait, DEFAULT_MODEL_WAIT_MS } from '../../../domain/model-wait.js';

describe('decideServerWait', () => {
  it('backs off exponentially from 1 s, at most 30 s a wait', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((tries) => decideServerWait({ tries, waitedMs: 0, boundMs: 600_000 }));
    expect(delays.map((wait) => (wait.kind === 'wait' ? wait.delayMs : -1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('never waits past the bound, and gives up once it has passed', () => {
    expect(decideServerWait({ tries: 6, waitedMs: 295_000, boundMs: 300_000 })).toEqual({
      kind: 'wait',
      delayMs: 5_000,
    });
    expect(decideServerWait({ tries: 7, waitedMs: 300_000, boundMs: 300_000 })).toEqual({
      kind: 'give_up',
      waitedMs: 300_000,
    });
  });

  it('waits several minutes by default', () => {
    expect(DEFAULT_MODEL_WAIT_MS).toBeGreaterThanOrEqual(3 * 60_000);
  });
});
