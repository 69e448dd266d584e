// The bubblewrap command line for one run: read-only root, private /tmp, hidden host folders, the worktree
// writable, fresh namespaces (PID, IPC, UTS, network unless allowed) and a clean environment.
import path from 'node:path';
import { realPathOf } from '../small-files.js';
import type { SandboxLimits } from './policy.js';

export interface BwrapPlan {
  worktree: string;
  /** Extra host folders the run may write (e.g. where pytest writes its JUnit report). */
  writable: string[];
  /** Host folders shown read-only even inside hidden ones (Python, the repository's .git). */
  readOnly: string[];
  hidden: string[];
  network: boolean;
  env: Record<string, string>;
  limits: SandboxLimits;
  argv: string[];
}

/** Home inside the sandbox: on the private /tmp, so it starts empty and vanishes with the run. */
export const SANDBOX_HOME = '/tmp/home';
export const SANDBOX_TMP = '/tmp';

const MB = 1024 * 1024;

/** `prlimit` (util-linux) sets the limits on the command it starts, inside the sandbox; an infinite CPU time sets none. */
export function prlimitArgs(limits: SandboxLimits): string[] {
  return [
    'prlimit',
    `--as=${limits.memoryMb * MB}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeMb * MB}`,
    ...(Number.isFinite(limits.cpuSeconds) ? [`--cpu=${limits.cpuSeconds}`] : []),
    '--core=0',
    '--',
  ];
}

// A folder that holds the root's system folders must never be hidden, whatever the configuration says.
const systemFolders = ['/usr', '/bin', '/lib', '/etc', '/sbin'];

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * `dirs` less those a bind of another already shows: a bind shows everything below it, so a nested one only costs a
 * mount (Python's prefix holds its library folders; a repository's .git holds its worktrees' admin folders). Only
 * real paths count as nested: below a symbolic link, a folder may be somewhere the outer bind does not show.
 */
function outermost(dirs: string[]): string[] {
  const unique = [...new Set(dirs)];
  const real = new Set(unique.filter((dir) => realPathOf(dir) === dir));
  return unique.filter((dir) => !real.has(dir) || ![...real].some((outer) => outer !== dir && isInside(dir, outer)));
}

export function bwrapArgs(plan: BwrapPlan): string[] {
  const args = ['bwrap', '--unshare-all', '--unshare-user', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  if (plan.network) args.push('--share-net');
  args.push('--ro-bind', '/', '/', '--tmpfs', SANDBOX_TMP);
  const hidden = plan.hidden
    .filter(
      (dir) => dir !== '/' && !systemFolders.some((system) => isInside(system, dir)) && !isInside(SANDBOX_TMP, dir),
    )
    .sort();
  for (const dir of hidden) args.push('--tmpfs', dir);
  for (const dir of outermost(plan.readOnly)) args.push('--ro-bind-try', dir, dir);
  args.push('--bind', plan.worktree, plan.worktree);
  for (const dir of plan.writable) args.push('--bind', dir, dir);
  // The empty stand-ins become read-only once the worktree and outputs are bound into them: no writes land there.
  for (const dir of hidden) args.push('--remount-ro', dir);
  args.push('--dir', SANDBOX_HOME, '--dev', '/dev', '--proc', '/proc', '--chdir', plan.worktree, '--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  return [...args, '--', ...prlimitArgs(plan.limits), ...plan.argv];
}
