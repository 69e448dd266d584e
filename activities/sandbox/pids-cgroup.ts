// RLIMIT_NPROC does not bind root, so a worker running as root caps the sandbox's processes with a pids
// cgroup instead (cgroup v1 `pids` or v2 with the pids controller), when it can create one.
import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const roots = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup'];

async function pidsRoot(): Promise<string | undefined> {
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
  remove(): Promise<void>;
}

/** A fresh cgroup allowing `max` processes, or undefined when not root or none can be made. */
export async function createPidsCgroup(max: number): Promise<PidsCgroup | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const root = await pidsRoot();
  if (!root) return undefined;
  const dir = path.join(root, `taskloop-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir);
    await writeFile(path.join(dir, 'pids.max'), String(max));
  } catch {
    await rmdir(dir).catch(() => undefined);
    return undefined;
  }
  return { path: dir, remove: () => killAndRemove(dir) };
}

// A process that left the group (setsid) is still in the cgroup: kill whatever is left, then drop the cgroup.
async function killAndRemove(dir: string): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    const pids = (await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map(Number);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await rmdir(dir).catch(() => undefined);
}

/** Wraps argv so the process joins the cgroup before it execs (nothing it starts escapes the cap). */
export function joinCgroupArgs(cgroup: PidsCgroup | undefined, argv: string[]): string[] {
  if (!cgroup) return argv;
  return ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup.path, ...argv];
}
