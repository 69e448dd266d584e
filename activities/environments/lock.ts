// One builder per key: a lock folder made atomically beside the cache entry. A second builder (another task, another
// worker sharing the cache) waits until the entry appears or the lock goes; a lock whose owner died is taken over.
import { hostname } from 'node:os';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

interface LockOwner {
  pid: number;
  host: string;
  startedAt: number;
}

export type LockResult = { kind: 'acquired'; release: () => Promise<void> } | { kind: 'done' };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(lockDir: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(path.join(lockDir, 'owner.json'), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/**
 * Takes `<entry>.lock`, or waits while another builder holds it; `done()` says the entry is there (then nothing is
 * taken). A lock is stale when its owner on this machine is gone, or after `staleAfterMs` whoever holds it (an owner
 * on another machine sharing the cache).
 */
export async function lockEntry(input: {
  entryDir: string;
  done: () => boolean;
  staleAfterMs: number;
  onWait?: () => void;
  signal?: AbortSignal;
}): Promise<LockResult> {
  const lockDir = `${input.entryDir}.lock`;
  await mkdir(path.dirname(lockDir), { recursive: true });
  for (;;) {
    if (input.done()) return { kind: 'done' };
    input.signal?.throwIfAborted();
    try {
      await mkdir(lockDir);
      const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: Date.now() };
      await writeFile(path.join(lockDir, 'owner.json'), JSON.stringify(owner));
      // Made between the check above and the lock: another builder finished meanwhile.
      if (input.done()) {
        await rm(lockDir, { recursive: true, force: true });
        return { kind: 'done' };
      }
      return { kind: 'acquired', release: () => rm(lockDir, { recursive: true, force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(lockDir);
    // A lock without its owner's note for a minute: its maker died between the two writes.
    const madeAt = owner?.startedAt ?? (await stat(lockDir).catch(() => undefined))?.mtimeMs ?? Date.now();
    const stale = owner
      ? (owner.host === hostname() && !isAlive(owner.pid)) || Date.now() - madeAt > input.staleAfterMs
      : Date.now() - madeAt > 60_000;
    if (stale) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    input.onWait?.();
    await delay(500, undefined, { signal: input.signal });
  }
}
