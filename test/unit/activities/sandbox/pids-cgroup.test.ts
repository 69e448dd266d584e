// The sandbox's pids cgroups, on the real hierarchy (the worker and CI run as root): none outlives its run, and a
// worker starting up removes the ones a dead worker left, killing what still ran in them.
import { spawn } from 'node:child_process';
import { access, mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ownCgroupPrefix,
  pidsCgroupRoot,
  removeDeadWorkersCgroups,
} from '../../../../activities/sandbox/pids-cgroup.js';
import { resolveWorkerSandbox, runSandboxed, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import { deadPid } from '../../../support/dead-pid.js';
import { makeTempDir, removeDirs } from '../../../support/git-repo.js';

const root = process.getuid?.() === 0 ? await pidsCgroupRoot() : undefined;
// Not root, or no writable cgroup v2 hierarchy: the suite is skipped, and says why (counted as skipped, not hidden).
const skipReason =
  process.getuid?.() !== 0
    ? 'the worker makes pids cgroups only as root, and this run is not root'
    : root
      ? undefined
      : 'no writable cgroup v2 hierarchy with the pids controller here';
if (skipReason) {
  console.warn(`pids-cgroup.test.ts skipped: ${skipReason}`);
  it.skip(`pids cgroups of sandboxed runs (skipped: ${skipReason})`, () => undefined);
}
const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const ownCgroups = async (base: string) => (await readdir(base)).filter((name) => name.startsWith(ownCgroupPrefix()));
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe.runIf(root)('pids cgroups of sandboxed runs', () => {
  const base = root ?? '';

  it('leaves no cgroup behind after its runs', async () => {
    const worktree = await makeTempDir();
    dirs.push(worktree);
    const policy = sandboxPolicyFor(resolveWorkerSandbox({ workDir: worktree }));
    for (let run = 0; run < 12; run += 1) {
      const logDir = `${worktree}-log-${run}`;
      dirs.push(logDir);
      const result = await runSandboxed({ argv: ['true'], worktree, testEnv: {}, policy, timeoutMs: 10_000, logDir });
      expect(result.exitCode).toBe(0);
    }
    expect(await ownCgroups(base)).toEqual([]);
  });

  // The join writes `0` to a v1 cgroup's `tasks` (the shell moves itself, see joinCgroupArgs): the run's command must
  // still be in the run's cgroup, and the cap must bind what it starts, or a fork bomb of a root worker runs free.
  it.each(['none', 'bwrap'] as const)('puts the %s run in its own cgroup, whose cap binds its forks', async (mode) => {
    const worktree = await makeTempDir();
    const logDir = `${worktree}-log`;
    dirs.push(worktree, logDir);
    const worker = resolveWorkerSandbox({ workDir: worktree });
    const policy = sandboxPolicyFor({ ...worker, mode }, { limits: { ...worker.limits, processes: 6 } });
    // The shell, then background sleeps until a fork fails (dash then exits): 6 processes at most, so at most 5 start.
    const script = [
      `echo "in own cgroup: $(grep -c 'pids:.*/${ownCgroupPrefix()}' /proc/self/cgroup)"`,
      'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do sleep 5 & echo "started $i"; done',
    ].join('; ');
    const result = await runSandboxed({
      argv: ['sh', '-c', script],
      worktree,
      testEnv: {},
      policy,
      timeoutMs: 20_000,
      logDir,
    });

    const out = await readFile(result.stdoutFile, 'utf8');
    const started = Math.max(0, ...[...out.matchAll(/started (\d+)/g)].map((match) => Number(match[1])));
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(6);
    expect(result.exitCode).not.toBe(0);
    // In bwrap mode the run has a cgroup namespace of its own, where its cgroup reads as "/".
    if (mode === 'none') expect(out).toContain('in own cgroup: 1');
    expect(await ownCgroups(base)).toEqual([]);
  });

  it('removes a dead worker’s cgroups at start-up and kills what still runs in them; a live worker’s stay', async () => {
    const namespace = ownCgroupPrefix().split('-')[1];
    const dead = path.join(base, `taskloop-${namespace}-${await deadPid()}-0123abcd`);
    const live = path.join(base, `${ownCgroupPrefix()}89abcdef`);
    // Another PID namespace's cgroup: its process id means nothing here, so it is never touched.
    const foreign = path.join(base, `taskloop-1-${await deadPid()}-4567cdef`);
    await mkdir(dead);
    await mkdir(live);
    await mkdir(foreign);
    const orphan = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    const orphanEnded = new Promise((resolve) => orphan.once('exit', (_code, signal) => resolve(signal)));
    try {
      await writeFile(path.join(dead, 'cgroup.procs'), String(orphan.pid));

      const removed = await removeDeadWorkersCgroups(base);

      expect(removed).toBeGreaterThanOrEqual(1);
      expect(await orphanEnded).toBe('SIGKILL');
      expect(await exists(dead)).toBe(false);
      expect(await exists(live)).toBe(true);
      expect(await exists(foreign)).toBe(true);
    } finally {
      orphan.kill('SIGKILL');
      await rmdir(live).catch(() => undefined);
      await rmdir(foreign).catch(() => undefined);
      await rmdir(dead).catch(() => undefined);
    }
  });
});
