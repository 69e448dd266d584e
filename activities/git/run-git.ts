// Opening repositories and worktrees with simple-git, with the checks that turn bad input into clear, final failures.
import { stat } from 'node:fs/promises';
import { GitError, simpleGit, type SimpleGit } from 'simple-git';
import { invalidRepo, invalidWorktree } from './failures.js';

// Output that other code parses must not depend on the user's color or path-quoting settings; and repository
// code (tests may have rewritten .git/config) must never run through taskloop's git: no hooks, no fsmonitor.
const stableConfig = ['color.ui=false', 'core.quotepath=false', 'core.hooksPath=/dev/null', 'core.fsmonitor=false'];

/** A simple-git client for `dir` with stable output settings (plus any extra `-c` settings). */
export function openGit(dir: string, extraConfig: string[] = []): SimpleGit {
  return simpleGit({
    baseDir: dir,
    config: [...stableConfig, ...extraConfig],
    // Our own fixed core.hooksPath=/dev/null (above) disables hooks; simple-git guards against callers setting it.
    unsafe: { allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true },
    // Any non-zero exit is a failure (simple-git's default ignores failures that print nothing on stderr).
    errors: (error, result) =>
      error ?? (result.exitCode === 0 ? undefined : Buffer.concat([...result.stdOut, ...result.stdErr])),
  });
}

/** Runs a git command whose failure is an answer (e.g. `rev-parse --verify`): undefined instead of a throw. */
export async function tryGit(git: SimpleGit, args: string[]): Promise<string | undefined> {
  try {
    return await git.raw(args);
  } catch (error) {
    if (error instanceof GitError) return undefined;
    throw error;
  }
}

/** True when `dir` exists and is a folder. */
export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** Opens the repository at `repoPath`; throws `InvalidRepo` (non-retryable) when it is missing or not a git repository. */
export async function openRepo(repoPath: string): Promise<SimpleGit> {
  if (!(await isDirectory(repoPath))) throw invalidRepo(repoPath, 'does not exist or is not a folder');
  const git = openGit(repoPath);
  if ((await tryGit(git, ['rev-parse', '--git-dir'])) === undefined) {
    throw invalidRepo(repoPath, 'is not a git repository');
  }
  return git;
}

/** Opens a worktree at `worktreePath`; throws `InvalidWorktree` (non-retryable) when it is missing or not a work tree. */
export async function openWorktree(worktreePath: string, extraConfig: string[] = []): Promise<SimpleGit> {
  if (!(await isDirectory(worktreePath))) throw invalidWorktree(worktreePath, 'does not exist');
  const git = openGit(worktreePath, extraConfig);
  const inside = await tryGit(git, ['rev-parse', '--is-inside-work-tree']);
  if (inside?.trim() !== 'true') throw invalidWorktree(worktreePath, 'is not a git work tree');
  return git;
}
