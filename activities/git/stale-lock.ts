// A crashed git process leaves `index.lock` behind; in a worktree only one task uses, an old lock is debris.
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { lockFileOf, privateGitDir, runGit, type Git } from './run-git.js';

/**
 * Runs `args` in an attempt's own worktree. When git finds the worktree's `index.lock` and the lock is older than
 * `startedAtMs` (the activity's start), no live process of this task holds it, so it is removed and the command run
 * again; other locks are waited for (see runGit), then reported as retryable `GitLocked`.
 */
export async function runInOwnWorktree(
  git: Git,
  worktreePath: string,
  startedAtMs: number,
  args: string[],
): Promise<string> {
  try {
    return await git.raw(args);
  } catch (error) {
    const lock = lockFileOf(error);
    if (lock === undefined) throw error;
    await removeStaleIndexLock(worktreePath, startedAtMs);
    return runGit(git, args);
  }
}

/** Removes the worktree's own `index.lock` when it was last touched before `startedAtMs`; true when removed. */
export async function removeStaleIndexLock(worktreePath: string, startedAtMs: number): Promise<boolean> {
  const gitDir = await privateGitDir(worktreePath);
  if (!gitDir) return false;
  const lock = path.join(gitDir, 'index.lock');
  const info = await stat(lock).catch(() => undefined);
  if (!info || info.mtimeMs >= startedAtMs) return false;
  await rm(lock, { force: true });
  return true;
}
