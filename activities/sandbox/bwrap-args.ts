// The bubblewrap command line for one run: a root built of only what programs need (the system's program and library
// folders, a few files of /etc, Python, the worktree and its git folders, read-only but for the worktree), a private
// bounded /tmp, fresh namespaces (PID, IPC, UTS, network unless allowed) and a clean environment. Nothing else of the
// host is there: not /run or /var (the host's unix sockets), not homes, not taskloop's state folder.
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { realPathOf } from '../small-files.js';
import { egressBwrapArgs } from './egress-network.js';
import type { SandboxLimits } from './policy.js';

export interface BwrapPlan {
  /** The run's working folder, bound writable; without one the run starts in its private /tmp and binds no folder. */
  worktree?: string;
  /** Extra host folders the run may write (e.g. where pytest writes its JUnit report). */
  writable: string[];
  /**
   * A host folder of its own bound as the run's /tmp, so what the run writes there is measured with the worktree
   * against one written-bytes limit (write-watch.ts); without one, /tmp is memory sized by that limit.
   */
  tmp?: string;
  /** Host folders shown read-only even inside hidden ones (Python, the repository's .git, TASKLOOP_SANDBOX_SHOW). */
  readOnly: string[];
  /** Host folders never shown, even inside a folder that is (the worker's home under /usr, say). */
  hidden: string[];
  /** Host folders shown at another path (a built environment at ENV_MOUNT): read-only unless `writable`. */
  mounts?: SandboxMount[];
  network: boolean;
  /** Set-up's network instead (activities/sandbox/egress-network.ts): its resolv.conf, naming slirp's resolver. */
  egress?: { resolvConf: string };
  env: Record<string, string>;
  limits: SandboxLimits;
  argv: string[];
}

export interface SandboxMount {
  source: string;
  dest: string;
  writable?: boolean;
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

// The system's programs and libraries; on a merged-/usr system the top-level ones are links into /usr, made again
// as links. A folder that holds them must never be hidden, whatever the configuration says.
const systemFolders = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

// What of /etc programs read: users and groups by id (no password hashes there), name resolution, time zone, the
// dynamic linker's cache, certificates, MIME and locale tables, Python's and git's system settings. Not /etc as a
// whole: it holds /etc/shadow, ssh host keys and services' credentials, readable by the worker's user when root.
export const etcEntries = [
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'resolv.conf',
  'gai.conf',
  'protocols',
  'services',
  'localtime',
  'timezone',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'mime.types',
  'mailcap',
  'locale.alias',
  'locale.conf',
  'os-release',
  'debian_version',
  'python3',
  'python3.11',
  'python3.12',
  'pip.conf',
  'gitconfig',
  'fonts',
  'magic',
].map((name) => `/etc/${name}`);

/** Binds a system folder, or makes again the link it is (`/bin -> usr/bin`); an absent one is left out. */
function systemFolderArgs(dir: string): string[] {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  if (!stats) return [];
  if (stats.isSymbolicLink()) return ['--symlink', readlinkSync(dir), dir];
  return ['--ro-bind', dir, dir];
}

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
  for (const dir of systemFolders) args.push(...systemFolderArgs(dir));
  for (const file of etcEntries) args.push('--ro-bind-try', file, file);
  if (plan.egress && !plan.network) args.push(...egressBwrapArgs(plan.egress.resolvConf));
  // /tmp counts toward the run's written bytes: a measured host folder, or memory of that size (a run binding no folder).
  if (plan.tmp) args.push('--bind', plan.tmp, SANDBOX_TMP);
  else args.push('--size', String(plan.limits.writtenMb * MB), '--tmpfs', SANDBOX_TMP);
  // Only a hidden folder inside a shown one needs covering; the rest of the host is not there at all. The private /tmp
  // counts as shown: folders made there to hold binds (a work folder under /tmp) would otherwise be writable memory.
  const shown = [...systemFolders, '/etc', SANDBOX_TMP, ...plan.readOnly];
  const hidden = plan.hidden
    .filter(
      (dir) =>
        dir !== '/' &&
        !systemFolders.some((system) => isInside(system, dir)) &&
        !isInside(SANDBOX_TMP, dir) &&
        shown.some((outer) => outer !== dir && isInside(dir, outer)),
    )
    .sort();
  for (const dir of hidden) args.push('--tmpfs', dir);
  for (const dir of outermost(plan.readOnly)) args.push('--ro-bind-try', dir, dir);
  if (plan.worktree) {
    args.push('--bind', plan.worktree, plan.worktree);
    // The worktree's .git (the pointer to its git folder, or a plain checkout's git folder) stays as taskloop made it.
    const dotGit = path.join(plan.worktree, '.git');
    args.push('--ro-bind-try', dotGit, dotGit);
  }
  for (const dir of plan.writable) args.push('--bind', dir, dir);
  for (const mount of plan.mounts ?? []) args.push(mount.writable ? '--bind' : '--ro-bind', mount.source, mount.dest);
  // The empty stand-ins become read-only once the worktree and outputs are bound into them: no writes land there.
  for (const dir of hidden) args.push('--remount-ro', dir);
  args.push('--dir', SANDBOX_HOME, '--dev', '/dev', '--proc', '/proc');
  // The root itself (the folders made to hold the binds) is read-only too: a run writes the worktree and /tmp only.
  args.push('--remount-ro', '/', '--chdir', plan.worktree ?? SANDBOX_TMP, '--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  return [...args, '--', ...prlimitArgs(plan.limits), ...plan.argv];
}
