// Git with no work tree: the only git taskloop runs for a worktree after repository code ran there. Git reads
// configuration, attributes, nested repositories and submodules from its work tree, and each of those can name a
// program; so these commands name the attempt's git folder (recorded before any repository code ran) and no work
// tree, and run in an empty private folder of their own: git in a repository without a work tree still reads
// `.gitattributes` from the folder it runs in. They address objects, trees and refs only (docs/security.md).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dieWithWorkerArgs } from '../process/die-with-worker.js';
import { runShortCommand } from '../process/run-short-command.js';
import { GitError } from './git-error.js';
import { gitEnv } from './git-process.js';
import { safeGitConfigArgs, worktreeGitDir, type Git } from './run-git.js';

/** A git client for one git folder, no work tree; each command's stdout as bytes (a `GitError` on a failure). */
export interface TreeGit {
  gitDir: string;
  /**
   * Runs `git <args>`; `input` is written to its stdin; `index` names a private index file (GIT_INDEX_FILE); `env`
   * adds variables (a commit's fixed dates).
   */
  run(args: string[], options?: TreeGitOptions): Promise<Buffer>;
  /** The same, stdout as UTF-8 text. */
  text(args: string[], options?: TreeGitOptions): Promise<string>;
}

export interface TreeGitOptions {
  input?: Buffer;
  index?: string;
  env?: Record<string, string>;
}

// A fixed identity and no automatic maintenance, for the commits made here (commit-tree).
const commitConfig = [
  'user.name=taskloop',
  'user.email=taskloop@localhost',
  'maintenance.auto=false',
  'gc.auto=0',
  // With no work tree git must not take the repository for one that has it (core.bare=false in its config).
  'core.bare=true',
];

/**
 * Runs `step` with a git client for the git folder of the worktree at `worktreePath` (the attempt's recorded folder,
 * checked: see worktreeGitDir) and a private folder for temporary files (a private index); both gone afterwards.
 */
export async function withTreeGit<T>(
  worktreePath: string,
  step: (git: TreeGit, privateDir: string) => Promise<T>,
): Promise<T> {
  return withGitDir(worktreeGitDir(worktreePath), step);
}

/** As withTreeGit, for a git folder named directly. */
export async function withGitDir<T>(
  gitDir: string,
  step: (git: TreeGit, privateDir: string) => Promise<T>,
): Promise<T> {
  const privateDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-tree-'));
  try {
    const cwd = path.join(privateDir, 'cwd');
    await mkdir(cwd, { mode: 0o700 });
    return await step(treeGitIn(gitDir, cwd), privateDir);
  } finally {
    await rm(privateDir, { recursive: true, force: true });
  }
}

function treeGitIn(gitDir: string, cwd: string): TreeGit {
  const config = [...safeGitConfigArgs(), ...commitConfig.flatMap((setting) => ['-c', setting])];
  const run = async (args: string[], options: TreeGitOptions = {}) => {
    const index = options.index ? { GIT_INDEX_FILE: options.index } : {};
    const env = { ...gitEnv(), GIT_OPTIONAL_LOCKS: '0', ...index, ...options.env };
    // --bare after --git-dir: no work tree is ever set up, not even the folder it runs in.
    const argv = ['git', `--git-dir=${gitDir}`, '--bare', ...config, ...args];
    const [command = 'git', ...rest] = dieWithWorkerArgs(argv);
    const result = await runShortCommand({ command, args: rest, cwd, env, input: options.input });
    if (result.code === 0) return result.stdout;
    const printed = Buffer.concat([result.stdout, result.stderr]).toString('utf8');
    throw new GitError(printed || `git ${args.join(' ')} exited with ${result.signal ?? result.code}`, result.code);
  };
  return { gitDir, run, text: async (args, options) => (await run(args, options)).toString('utf8') };
}

/** The tree git as the `Git` client the branch code takes (raw commands only). */
export function asGit(git: TreeGit): Git {
  const unsupported = () => Promise.reject(new Error('not available without a work tree'));
  const client: Git = { raw: (args) => git.text(args), env: () => client, diffWithNumstat: unsupported };
  return client;
}
