import { describe, expect, it } from 'vitest';
import { WorkFailed } from '../../../../client/cli-errors.js';
import { createReconnect, isConnectionLoss, lossReason } from '../../../../client/tasks/reconnect.js';

/** What @temporalio/client throws when the server is gone: a ServiceError around a gRPC UNAVAILABLE. */
const lost = () =>
  Object.assign(new Error('Failed to get Workflow execution history'), {
    cause: Object.assign(new Error('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED'), {
      code: 14,
    }),
  });

function clock() {
  let time = 0;
  return { now: () => time, sleep: async (ms: number) => void (time += ms) };
}

describe('riding out a lost Temporal server', () => {
  it('tells a lost server from other errors and says why it is lost', () => {
    expect(isConnectionLoss(lost())).toBe(true);
    expect(isConnectionLoss(new Error('Channel has been shut down'))).toBe(true);
    expect(isConnectionLoss(new Error('workflow not found'))).toBe(false);
    expect(lossReason(lost())).toBe('connection refused');
  });

  it('retries with growing delays, says "lost" once and "reconnected" once, and returns the result', async () => {
    const lines: string[] = [];
    const { now, sleep } = clock();
    const delays: number[] = [];
    const reconnect = createReconnect('127.0.0.1:7233', (line) => lines.push(line), {
      now,
      sleep: async (ms) => {
        delays.push(ms);
        await sleep(ms);
      },
    });
    let calls = 0;
    const result = await reconnect(async () => {
      calls += 1;
      if (calls <= 5) throw lost();
      return 'done';
    });
    expect(result).toBe('done');
    expect(delays).toEqual([500, 1000, 2000, 4000, 5000]);
    expect(lines).toEqual([
      'lost the Temporal server at 127.0.0.1:7233 (connection refused); reconnecting with backoff until it is back (the work goes on there)',
      'reconnected to the Temporal server at 127.0.0.1:7233 after 13 s',
    ]);
  });

  it('passes other errors through at once', async () => {
    const reconnect = createReconnect('h:1', () => undefined, clock());
    await expect(reconnect(() => Promise.reject(new Error('no such workflow')))).rejects.toThrow('no such workflow');
  });

  it('gives up after the limit with a line saying the work goes on', async () => {
    const reconnect = createReconnect('h:1', () => undefined, { ...clock(), giveUpAfterMs: 60_000 });
    const promise = reconnect(() => Promise.reject(lost()));
    await expect(promise).rejects.toBeInstanceOf(WorkFailed);
    await expect(promise).rejects.toThrow(/unreachable for 1 min; stopped waiting .*taskloop watch/);
  });
});
