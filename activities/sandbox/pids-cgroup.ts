// RLIMIT_NPROC does not bind root, so a worker running as root caps the sandbox's processes with a pids
// cgroup instead (cgroup v1 `pids` or v2 with the pids controller), when it can create one.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { access, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readSmallFile } from '../small-files.js';
import { isDeadOwner, ownerTag } from './owner-process.js';

const roots = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup'];

let foundRoot: Promise<string | undefined> | undefined;

/** The pids hierarchy's root folder (cgroup v1 `pids`, or v2 with the pids controller), if there is one. */
export function pidsCgroupRoot(): Promise<string | undefined> {
  // Looked up once per process: the hierarchies a host mounts do not change under a running worker.
  foundRoot ??= findPidsCgroupRoot();
  return foundRoot;
}

async function findPidsCgroupRoot(): Promise<string | undefined> {
  for (const root of roots) {
    try {
      await access(path.join(root, 'cgroup.procs'));
      if (root === '/sys/fs/cgroup') {
        const controllers = await readFile(path.join(root, 'cgroup.subtree_control'), 'utf8');
        if (!controllers.split(/\s+/).includes('pids')) continue;
      }
      return root;
    } catch {
      // Not this hierarchy.
    }
  }
  return undefined;
}

export interface PidsCgroup {
  path: string;
  /** cgroup v1 (`/sys/fs/cgroup/pids`) or v2: they are joined differently (see joinCgroupArgs). */
  version: 1 | 2;
  remove(): Promise<void>;
}

// The owner is in the name (activities/sandbox/owner-process.ts): a later worker removes a dead worker's cgroups.
const ownedName = /^taskloop-(\d+)-(\d+)-[0-9a-f]{8}$/;

/** The name prefix of this process's cgroups (for tests). */
export const ownCgroupPrefix = () => `taskloop-${ownerTag()}-`;

/** A fresh cgroup allowing `max` processes, or undefined when not root or none can be made. */
export async function createPidsCgroup(max: number): Promise<PidsCgroup | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const root = await pidsCgroupRoot();
  if (!root) return undefined;
  const dir = path.join(root, `${ownCgroupPrefix()}${randomBytes(4).toString('hex')}`);
  try {
    // cgroupfs files, once per run: synchronous, as the worker's other small files (activities/small-files.ts).
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'pids.max'), String(max));
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      // Not made, or already gone.
    }
    return undefined;
  }
  return { path: dir, version: root === '/sys/fs/cgroup' ? 2 : 1, remove: () => killAndRemove(dir) };
}

// A process that left the group (setsid) is still in the cgroup: kill whatever is left, then drop the cgroup.
export async function killAndRemove(dir: string): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    const pids = await processesIn(dir);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await sleep(50);
  }
  await removeWhenReleased(dir);
}

async function processesIn(dir: string): Promise<number[]> {
  return (readSmallFile(path.join(dir, 'cgroup.procs')) ?? '').split('\n').filter(Boolean).map(Number);
}

/**
 * Right after its last process exits, the kernel may still hold a cgroup for a moment, and rmdir fails with EBUSY
 * (12 of 30 removals done at the exit itself, measured here; the sandbox removes it later, after reading the run's
 * output, and no run of 50 met it). Retried for up to about a second rather than leaving an empty cgroup behind.
 */
async function removeWhenReleased(dir: string): Promise<void> {
  for (let waitMs = 1; ; waitMs *= 2) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EBUSY' || waitMs > 512) return;
    }
    await sleep(waitMs);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Removes the cgroups of workers that are no longer running (a worker killed mid-run never removes its own; 26 empty
 * ones from earlier test and bench runs had piled up on the bench machine), killing any process still in them: one
 * that left its process group escapes killRecordedGroups, never its cgroup. Returns how many were removed. A cgroup
 * whose owner's process id is alive again is left alone.
 */
export async function removeDeadWorkersCgroups(root?: string): Promise<number> {
  const base = root ?? (process.getuid?.() === 0 ? await pidsCgroupRoot() : undefined);
  if (!base) return 0;
  const names = await readdir(base).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const [, namespace, owner] = ownedName.exec(name) ?? [];
    if (!isDeadOwner(namespace, owner)) continue;
    const dir = path.join(base, name);
    await killAndRemove(dir);
    if (await isGone(dir)) removed += 1;
  }
  return removed;
}

const isGone = (dir: string) =>
  access(dir).then(
    () => false,
    () => true,
  );

/**
 * Wraps argv so the process joins the cgroup before it execs (nothing it starts escapes the cap).
 *
 * On cgroup v1 the shell writes `0` to `tasks`: it moves only itself (one thread: the whole shell), which the kernel
 * does without its global threadgroup lock, whose write side waits for an RCU grace period. Writing the pid to
 * `cgroup.procs` takes that lock: 6 to 19 ms per run here when runs are apart (a calc attempt's critical path);
 * this way the shell starts bubblewrap about 1 ms after its own start. cgroup v2 has no `tasks` file (only threaded cgroups move threads), so there the pid
 * goes to `cgroup.procs`.
 */
export function joinCgroupArgs(cgroup: Pick<PidsCgroup, 'path' | 'version'> | undefined, argv: string[]): string[] {
  if (!cgroup) return argv;
  const join = cgroup.version === 1 ? 'echo 0 > "$0/tasks"' : 'echo $$ > "$0/cgroup.procs"';
  return ['/bin/sh', '-c', `${join} && exec "$@"`, cgroup.path, ...argv];
}
