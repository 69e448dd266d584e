// Removes an attempt's worktree, reporting whether it was clean; the branch (and any commit) stays.
import path from 'node:path';
import { GitError } from 'simple-git';
import { invalidWorktree } from './failures.js';
import { isDirectory, openRepo, runGit, withRepoLock } from './run-git.js';
import { canonical, isWorktreeOf } from './worktree-owner.js';

// What `git worktree remove` (without --force) says when the worktree has changes or untracked files.
const dirtyMessage = /contains modified or untracked files|is dirty/i;

/**
 * Removes the worktree: a plain `git worktree remove` succeeds only when it is clean (wasClean=true); a dirty one is
 * then force-removed (wasClean=false). Idempotent: a missing worktree gives removed=false (and wasClean=true).
 * Refuses (non-retryable `InvalidWorktree`) a folder that is not a linked worktree of `repoPath`.
 */
export async function removeWorktree(input: {
  repoPath: string;
  worktreePath: string;
  /** The change is committed: remove at once, without the clean check (wasClean is then not known: false). */
  committed?: boolean;
}): Promise<{ removed: boolean; wasClean: boolean }> {
  const git = await openRepo(input.repoPath);
  const worktreePath = path.resolve(input.worktreePath);
  if (!(await isDirectory(worktreePath))) return { removed: false, wasClean: true };
  if (!(await isWorktreeOf(worktreePath, input.repoPath))) {
    throw invalidWorktree(worktreePath, `is not a linked worktree of repository ${JSON.stringify(input.repoPath)}`);
  }
  return withRepoLock(await canonical(input.repoPath), async () => {
    if (input.committed) {
      await runGit(git, ['worktree', 'remove', '--force', '--force', worktreePath]);
      return { removed: true, wasClean: false };
    }
    try {
      await git.raw(['worktree', 'remove', worktreePath]);
      return { removed: true, wasClean: true };
    } catch (error) {
      const dirty = error instanceof GitError && dirtyMessage.test(error.message);
      // Twice --force: a dirty or locked worktree goes too; a lock held by another git process is waited for.
      await runGit(git, ['worktree', 'remove', '--force', '--force', worktreePath]);
      return { removed: true, wasClean: !dirty };
    }
  });
}
