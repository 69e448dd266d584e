// One builder per key: a lock folder made atomically beside the cache entry. A second builder (another task, another
// worker sharing the cache) waits until the entry appears or the lock goes; a lock whose owner died is taken over.
import { hostname } from 'node:os';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Who holds a lock or a staging folder: a builder's process on a machine. */
export interface LockOwner {
  pid: number;
  host: string;
  startedAt: number;
}

/** This process, as an owner. */
export const ownerNow = (): LockOwner => ({ pid: process.pid, host: hostname(), startedAt: Date.now() });

export type LockResult = { kind: 'acquired'; release: () => Promise<void> } | { kind: 'done' };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The owner note `file` holds, if it holds one. */
export async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/**
 * Whether the owner of something made at `madeAt` is gone: its process on this machine ended, or (an owner on another
 * machine sharing the cache) it is older than `staleAfterMs`; without an owner's note, after a minute (its maker died
 * between making it and writing the note).
 */
export function ownerGone(owner: LockOwner | undefined, madeAt: number, staleAfterMs: number): boolean {
  if (!owner) return Date.now() - madeAt > 60_000;
  return (owner.host === hostname() && !isAlive(owner.pid)) || Date.now() - madeAt > staleAfterMs;
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
      await writeFile(path.join(lockDir, 'owner.json'), JSON.stringify(ownerNow()));
      // Made between the check above and the lock: another builder finished meanwhile.
      if (input.done()) {
        await rm(lockDir, { recursive: true, force: true });
        return { kind: 'done' };
      }
      return { kind: 'acquired', release: () => rm(lockDir, { recursive: true, force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(path.join(lockDir, 'owner.json'));
    const madeAt = owner?.startedAt ?? (await stat(lockDir).catch(() => undefined))?.mtimeMs ?? Date.now();
    if (ownerGone(owner, madeAt, input.staleAfterMs)) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    input.onWait?.();
    await delay(500, undefined, { signal: input.signal });
  }
}
