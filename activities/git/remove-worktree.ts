// Removes an attempt's worktree after reporting whether it was clean; the branch (and any commit) stays.
import path from 'node:path';
import { invalidWorktree } from './failures.js';
import { isDirectory, openGit, openRepo } from './run-git.js';
import { findWorktree } from './worktree-list.js';

/**
 * Reports whether the worktree had no changes against HEAD and no untracked files, then force-removes it and prunes.
 * Idempotent: a missing worktree gives removed=false (and wasClean=true: nothing is left dirty).
 * Refuses (non-retryable `InvalidWorktree`) a folder that is not a linked worktree of `repoPath`.
 */
export async function removeWorktree(input: {
  repoPath: string;
  worktreePath: string;
}): Promise<{ removed: boolean; wasClean: boolean }> {
  const git = await openRepo(input.repoPath);
  await git.raw(['worktree', 'prune']);
  const worktreePath = path.resolve(input.worktreePath);
  if (!(await isDirectory(worktreePath))) return { removed: false, wasClean: true };

  const entry = await findWorktree(git, worktreePath);
  if (!entry || entry.main) {
    throw invalidWorktree(worktreePath, `is not a linked worktree of repository ${JSON.stringify(input.repoPath)}`);
  }
  const status = await openGit(worktreePath).raw(['status', '--porcelain', '--untracked-files=all']);
  const wasClean = status.trim().length === 0;
  // Twice --force: also removes a dirty or locked worktree; the caller has already recorded wasClean.
  await git.raw(['worktree', 'remove', '--force', '--force', worktreePath]);
  await git.raw(['worktree', 'prune']);
  return { removed: true, wasClean };
}
