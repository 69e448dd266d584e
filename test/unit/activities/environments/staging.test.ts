import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeStagingDir, removeDeadStaging, STAGING_OWNER } from '../../../../activities/environments/staging.js';
import { atFinalPath } from '../../../../activities/environments/ensure.js';
import { deadPid } from '../../../support/dead-pid.js';
import { useTempDirs } from '../../../support/git-repo.js';

/** A staging folder as a builder makes one, with `owner` as its note (none: a builder killed before writing it). */
async function plantStaging(cacheDir: string, name: string, owner?: object): Promise<string> {
  const dir = path.join(cacheDir, name);
  await mkdir(path.join(dir, 'env', 'bin'), { recursive: true });
  if (owner) await writeFile(path.join(dir, STAGING_OWNER), JSON.stringify(owner));
  return dir;
}

describe('the staging folders of killed builds', () => {
  const tempDir = useTempDirs();

  it('removes those whose builder on this machine is gone, and keeps a live builder’s', async () => {
    const cacheDir = await tempDir();
    const dead = await plantStaging(cacheDir, '.staging-repo-abc-1111', {
      pid: await deadPid(),
      host: hostname(),
      startedAt: Date.now(),
    });
    const live = await makeStagingDir(cacheDir, 'repo-abc');
    const built = await plantStaging(cacheDir, 'repo-abc'); // an environment, not a staging folder

    expect(await removeDeadStaging(cacheDir)).toEqual(['.staging-repo-abc-1111']);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(built)).toBe(true);
  });

  it('removes one without a note after a minute, and another machine’s after the longest set-up', async () => {
    const cacheDir = await tempDir();
    const noteless = await plantStaging(cacheDir, '.staging-repo-def-2222');
    const old = new Date(Date.now() - 2 * 60_000);
    await utimes(noteless, old, old);
    const fresh = await plantStaging(cacheDir, '.staging-repo-def-3333');
    const elsewhere = { pid: process.pid, host: `not-${hostname()}`, startedAt: Date.now() - 10_000 };
    const remote = await plantStaging(cacheDir, '.staging-repo-ghi-4444', elsewhere);

    expect(await removeDeadStaging(cacheDir)).toEqual(['.staging-repo-def-2222']);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(remote)).toBe(true);
    expect(await removeDeadStaging(cacheDir, 5_000)).toEqual(['.staging-repo-ghi-4444']);
  });
});

describe('the packages a manifest records', () => {
  it('name the entry folder, never the staging folder renamed into it', () => {
    const staging = '/cache/.staging-calc-0123-ab12cd34';
    expect(
      atFinalPath(
        ['pytest==8.3.3', `tool @ file://${staging}/env/wheels/tool.whl`, `-e ${staging}/env/src/x`],
        staging,
        '/cache/calc-0123',
      ),
    ).toEqual(['pytest==8.3.3', 'tool @ file:///cache/calc-0123/env/wheels/tool.whl', '-e /cache/calc-0123/env/src/x']);
  });
});
