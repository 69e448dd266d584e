import { describe, expect, it } from 'vitest';
import {
  decideErrorStatusWait,
  decideServerWait,
  DEFAULT_MODEL_WAIT_MS,
  DOWN_AT_START_WAIT_MS,
  serverWaitBound,
} from '../../../domain/model-wait.js';

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

describe('serverWaitBound', () => {
  it('gives a server refusing the very first connection seconds, and a restarting or loading one the whole bound', () => {
    const bound = DEFAULT_MODEL_WAIT_MS;
    expect(serverWaitBound({ boundMs: bound, answeredBefore: false, refused: true })).toBe(DOWN_AT_START_WAIT_MS);
    expect(DOWN_AT_START_WAIT_MS).toBeLessThan(60_000);
    // It answered earlier in the run: a refusal now is a restart.
    expect(serverWaitBound({ boundMs: bound, answeredBefore: true, refused: true })).toBe(bound);
    // A 5xx (a server loading its model) is waited out even at the start.
    expect(serverWaitBound({ boundMs: bound, answeredBefore: false, refused: false })).toBe(bound);
    // A bound set shorter than the start bound stays as set.
    expect(serverWaitBound({ boundMs: 5_000, answeredBefore: false, refused: true })).toBe(5_000);
  });
});

describe('decideErrorStatusWait: a server that answers with an error, by its status', () => {
  it('tries a 500 three times in all, whatever the bound', () => {
    const at = (tries: number) => decideErrorStatusWait({ status: 500, tries, waitedMs: 3_000, boundMs: 300_000 });
    expect(at(1)).toEqual({ kind: 'wait', delayMs: 1_000 });
    expect(at(2)).toEqual({ kind: 'wait', delayMs: 2_000 });
    expect(at(3)).toEqual({ kind: 'give_up', waitedMs: 3_000 });
  });

  it('waits out 502, 503 and 504 (a model loading) for at most a minute, never past the bound', () => {
    for (const status of [502, 503, 504]) {
      expect(decideErrorStatusWait({ status, tries: 9, waitedMs: 59_000, boundMs: 300_000 })).toEqual({
        kind: 'wait',
        delayMs: 1_000,
      });
      expect(decideErrorStatusWait({ status, tries: 9, waitedMs: 60_000, boundMs: 300_000 }).kind).toBe('give_up');
      expect(decideErrorStatusWait({ status, tries: 2, waitedMs: 5_000, boundMs: 5_000 }).kind).toBe('give_up');
    }
  });
});
