import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import { heartbeatWhile } from '../../../activities/heartbeat-while.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('heartbeatWhile', () => {
  it('heartbeats at once and on every interval while the work runs, then stops', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => (beats += 1));
    const value = await env.run(() => heartbeatWhile(async () => (await sleep(130), 'done'), 20));
    expect(value).toBe('done');
    expect(beats).toBeGreaterThanOrEqual(2);
    const after = beats;
    await sleep(60);
    expect(beats).toBe(after);
  });

  it('passes the work’s error through and stops heartbeating', async () => {
    const env = new MockActivityEnvironment();
    let beats = 0;
    env.on('heartbeat', () => (beats += 1));
    await expect(env.run(() => heartbeatWhile(() => Promise.reject(new Error('git failed')), 10))).rejects.toThrow(
      'git failed',
    );
    const after = beats;
    await sleep(40);
    expect(beats).toBe(after);
  });

  it('runs the work without heartbeats in a local activity (the claim): Core has no heartbeat for one', async () => {
    const env = new MockActivityEnvironment({ isLocal: true });
    let beats = 0;
    env.on('heartbeat', () => (beats += 1));
    expect(await env.run(() => heartbeatWhile(async () => (await sleep(50), 'claimed'), 10))).toBe('claimed');
    expect(beats).toBe(0);
  });
});
