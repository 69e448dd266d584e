// One memory limit for the whole run: the address-space limit binds each process alone (three processes held 7.5 GB
// under a 4096 MB limit), so a worker running as root also puts the run in a memory cgroup of `memoryMb`, when it can
// make one: cgroup v1's `memory` hierarchy (a cgroup of its own, joined beside the pids one), or on cgroup v2 the run's
// pids cgroup itself (a process is in one v2 cgroup only), when the memory controller is enabled there.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { readSmallFile } from '../small-files.js';
import { killAndRemove, ownCgroupPrefix, removeDeadWorkersCgroups, type PidsCgroup } from './pids-cgroup.js';

const v1Root = '/sys/fs/cgroup/memory';
const MB = 1024 * 1024;

export interface MemoryCgroup {
  path: string;
  version: 1 | 2;
  /** True when the run must join it (v1); on v2 it is the pids cgroup the run joins anyway. */
  separate: boolean;
  /** Processes of the run the kernel killed for want of memory so far. */
  oomKills(): number;
  remove(): Promise<void>;
}

let foundV1: Promise<string | undefined> | undefined;

/** cgroup v1's memory hierarchy, if the host mounts one (looked up once per process). */
export function memoryCgroupV1Root(): Promise<string | undefined> {
  foundV1 ??= access(path.join(v1Root, 'cgroup.procs')).then(
    () => v1Root,
    () => undefined,
  );
  return foundV1;
}

/** The `oom_kill` count of a cgroup (v1: memory.oom_control, v2: memory.events). */
function readOomKills(dir: string, version: 1 | 2): number {
  const text = readSmallFile(path.join(dir, version === 1 ? 'memory.oom_control' : 'memory.events')) ?? '';
  const match = /^oom_kill (\d+)$/m.exec(text);
  return match ? Number(match[1]) : 0;
}

/** Writes a cgroup file; false when the kernel refuses (a controller not enabled, a value out of range). */
function tryWrite(file: string, value: string): boolean {
  try {
    writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

/** The run's memory cgroup of `limitMb`, or undefined when not root or none can be made. */
export async function createMemoryCgroup(limitMb: number, pids?: PidsCgroup): Promise<MemoryCgroup | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const bytes = String(limitMb * MB);
  if (pids?.version === 2) {
    // The memory controller shows memory.max in the pids cgroup only when the parent enables it for its children.
    if (!existsSync(path.join(pids.path, 'memory.max')) || !tryWrite(path.join(pids.path, 'memory.max'), bytes))
      return undefined;
    tryWrite(path.join(pids.path, 'memory.swap.max'), '0');
    return {
      path: pids.path,
      version: 2,
      separate: false,
      oomKills: () => readOomKills(pids.path, 2),
      remove: () => Promise.resolve(),
    };
  }
  const root = await memoryCgroupV1Root();
  if (!root) return undefined;
  const dir = path.join(root, `${ownCgroupPrefix()}${randomBytes(4).toString('hex')}`);
  try {
    // cgroupfs files, once per run: synchronous, as the worker's other small files (activities/small-files.ts).
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'memory.limit_in_bytes'), bytes);
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      // Not made, or already gone.
    }
    return undefined;
  }
  // Memory plus swap at the same bound, where swap is accounted: swap does not stretch the limit.
  tryWrite(path.join(dir, 'memory.memsw.limit_in_bytes'), bytes);
  return {
    path: dir,
    version: 1,
    separate: true,
    oomKills: () => readOomKills(dir, 1),
    remove: () => killAndRemove(dir),
  };
}

/** Removes the v1 memory cgroups of workers that are no longer running (see removeDeadWorkersCgroups). */
export async function removeDeadWorkersMemoryCgroups(): Promise<number> {
  const root = process.getuid?.() === 0 ? await memoryCgroupV1Root() : undefined;
  return root ? removeDeadWorkersCgroups(root) : 0;
}
