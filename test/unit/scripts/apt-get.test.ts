// The first-run set-up's apt-get waits for another apt's lock (bounded) instead of giving up at once (issue 69, E12):
// a stand-in apt-get on the PATH answers as apt does while unattended-upgrades holds the lock, then lets go.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript (it runs before npm ci), no declarations
import { aptGet, aptGetArgs, lockHolder } from '../../../scripts/apt-get.mjs';

type AptResult = { status: number; waitedForLock: boolean; holder?: { lock: string; pid?: string; program?: string } };
type AptGet = (args: string[], options: Record<string, unknown>) => AptResult;

const listsLock =
  'E: Could not get lock /var/lib/apt/lists/lock. It is held by process 2770 (unattended-upgr)\nE: Unable to lock directory /var/lib/apt/lists/\n';

/** A PATH whose apt-get records its arguments and refuses with `stderr` (exit 100) its first `refusals` calls. */
async function standIn(refusals: number, stderr = listsLock) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-apt-'));
  const calls = path.join(dir, 'calls');
  await writeFile(path.join(dir, 'stderr'), stderr);
  await writeFile(
    path.join(dir, 'apt-get'),
    `#!/bin/sh
echo "$*" >> '${calls}'
n=$(wc -l < '${calls}')
if [ "$n" -le ${refusals} ]; then cat '${path.join(dir, 'stderr')}' >&2; exit 100; fi
exit 0
`,
    { mode: 0o755 },
  );
  const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` };
  return { env, calls: async () => (await readFile(calls, 'utf8')).trim().split('\n') };
}

describe("the set-up's apt-get", () => {
  it('passes the lock wait to apt itself', () => {
    expect(aptGetArgs(['install', '-y', 'bubblewrap'])).toEqual([
      '-o',
      'DPkg::Lock::Timeout=300',
      'install',
      '-y',
      'bubblewrap',
    ]);
  });

  it('waits while another apt holds the lock, saying so once, then goes on', async () => {
    const apt = await standIn(2);
    const said: string[] = [];
    const result = (aptGet as AptGet)(['update', '-qq'], {
      env: apt.env,
      say: (line: string) => said.push(line),
      waitS: 60,
      retryEveryMs: 10,
    });
    expect(result).toMatchObject({ status: 0, waitedForLock: true });
    expect(await apt.calls()).toEqual(Array(3).fill('-o DPkg::Lock::Timeout=60 update -qq'));
    expect(said).toEqual([
      'another apt runs (unattended-upgr pid 2770 holds /var/lib/apt/lists/lock; on a fresh machine often unattended-upgrades): waiting up to 1 min for it',
    ]);
  });

  it('gives up after its bound naming who holds the lock; any other failure at once', async () => {
    const held = await standIn(1000);
    const result = (aptGet as AptGet)(['update'], { env: held.env, waitS: 0, retryEveryMs: 10 });
    expect(result).toMatchObject({
      status: 100,
      holder: { lock: '/var/lib/apt/lists/lock', pid: '2770', program: 'unattended-upgr' },
    });
    const broken = await standIn(1000, 'E: Unable to locate package bubblewrap\n');
    const failed = (aptGet as AptGet)(['install', 'bubblewrap'], { env: broken.env, waitS: 60, retryEveryMs: 10 });
    expect(failed).toMatchObject({ status: 100, waitedForLock: false });
    expect(failed.holder).toBeUndefined();
    expect(await broken.calls()).toHaveLength(1);
    expect(
      lockHolder('E: Could not get lock /var/lib/dpkg/lock-frontend - open (11: Resource temporarily unavailable)'),
    ).toEqual({
      lock: '/var/lib/dpkg/lock-frontend',
      pid: undefined,
      program: undefined,
    });
  });
});
