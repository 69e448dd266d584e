// The folders environments are built in before they are renamed into place (ensure.ts). Each holds its builder's note
// (pid, machine, start), so a folder whose builder was killed (`env build` stopped by SIGKILL, a worker that died
// mid-build) is known as dead and removed: by the next build, by `taskloop env clean`, and by a starting worker. Before
// issue 65 such a folder stayed for good, past `env clean --all`.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MAX_SETUP_TIMEOUT_MS } from '../../domain/environment-timeout.js';
import { ownerGone, ownerNow, readOwner } from './lock.js';

const STAGING_PREFIX = '.staging-';
/** The builder's note inside its staging folder; removed before the folder becomes an environment. */
export const STAGING_OWNER = '.staging-owner.json';
/** A builder on another machine sharing the cache is dead past the longest set-up a task may ask for, and a margin. */
const OTHER_HOST_STALE_MS = MAX_SETUP_TIMEOUT_MS + 5 * 60_000;

/** Makes a staging folder for the environment `name`, with this process's note in it. */
export async function makeStagingDir(cacheDir: string, name: string): Promise<string> {
  const dir = path.join(cacheDir, `${STAGING_PREFIX}${name}-${randomUUID().slice(0, 8)}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, STAGING_OWNER), JSON.stringify(ownerNow()));
  return dir;
}

/** Removes the staging folders of `cacheDir` whose builder is gone (see the file's comment); their names. */
export async function removeDeadStaging(cacheDir: string, staleAfterMs = OTHER_HOST_STALE_MS): Promise<string[]> {
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names.filter((entry) => entry.startsWith(STAGING_PREFIX))) {
    const dir = path.join(cacheDir, name);
    const owner = await readOwner(path.join(dir, STAGING_OWNER));
    const madeAt = owner?.startedAt ?? (await stat(dir).catch(() => undefined))?.mtimeMs ?? Date.now();
    if (!ownerGone(owner, madeAt, staleAfterMs)) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
