import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockEntry } from '../../../../activities/environments/lock.js';
import { deadPid } from '../../../support/dead-pid.js';
import { useTempDirs } from '../../../support/git-repo.js';

/** `promise`, or a failure naming what did not happen within `ms` (not only the test's own timeout). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('one builder per environment key', () => {
  const tempDir = useTempDirs();

  it('a second builder waits while the first holds the lock, and takes the finished entry', async () => {
    const entryDir = path.join(await tempDir(), 'repo-abc');
    const done = () => existsSync(path.join(entryDir, 'manifest.json'));
    const first = await lockEntry({ entryDir, done, staleAfterMs: 60_000 });
    expect(first.kind).toBe('acquired');
    let waits = 0;
    const second = lockEntry({ entryDir, done, staleAfterMs: 60_000, onWait: () => (waits += 1) });
    // The first builder finishes: its entry appears, then it lets go of the lock.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await mkdir(entryDir, { recursive: true });
    await writeFile(path.join(entryDir, 'manifest.json'), '{}');
    if (first.kind === 'acquired') await first.release();
    expect(await within(second, 10_000, 'the waiting builder did not take the finished entry')).toEqual({
      kind: 'done',
    });
    expect(waits).toBeGreaterThan(0);
  });

  it('takes over a lock whose owner on this machine died', async () => {
    const entryDir = path.join(await tempDir(), 'repo-def');
    await mkdir(`${entryDir}.lock`);
    const owner = { pid: await deadPid(), host: hostname(), startedAt: Date.now() };
    await writeFile(path.join(`${entryDir}.lock`, 'owner.json'), JSON.stringify(owner));
    const taken = await within(
      lockEntry({ entryDir, done: () => false, staleAfterMs: 60_000 }),
      10_000,
      'the lock of a dead owner was not taken over',
    );
    expect(taken.kind).toBe('acquired');
  });

  it('waits for a live owner on another machine until its lock is older than the set-up could take', async () => {
    const entryDir = path.join(await tempDir(), 'repo-ghi');
    await mkdir(`${entryDir}.lock`);
    const owner = { pid: process.pid, host: 'another-machine', startedAt: Date.now() - 10_000 };
    await writeFile(path.join(`${entryDir}.lock`, 'owner.json'), JSON.stringify(owner));
    const aborted = new AbortController();
    const waiting = lockEntry({
      entryDir,
      done: () => false,
      staleAfterMs: 60_000,
      onWait: () => aborted.abort(),
      signal: aborted.signal,
    });
    await expect(within(waiting, 10_000, 'the wait was not stopped by its signal')).rejects.toThrow(/aborted|abort/i);
    const taken = await within(
      lockEntry({ entryDir, done: () => false, staleAfterMs: 5_000 }),
      10_000,
      'a lock older than the set-up could take was not taken over',
    );
    expect(taken.kind).toBe('acquired');
  });
});
