// Removes an attempt's worktree, reporting whether it was clean; the branch (and any commit) stays.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { GitError } from './git-error.js';
import { isDirectorySync } from '../small-files.js';
import { invalidWorktree } from './failures.js';
import { pointerChange, recordedAttemptGitDir, removeAttemptGitDirRecord } from './attempt-git-dir.js';
import { isDirectory, openRepo, privateGitDir, runGit, withRepoLock, type Git } from './run-git.js';
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
    const result = await removeRegistered(git, worktreePath, input.committed === true);
    removeAttemptGitDirRecord(worktreePath);
    return result;
  });
}

async function removeRegistered(
  git: Git,
  worktreePath: string,
  committed: boolean,
): Promise<{ removed: boolean; wasClean: boolean }> {
  // A worktree whose `.git` was rewritten is deleted without git: `git worktree remove` would read that pointer.
  const gitDir = recordedAttemptGitDir(worktreePath);
  if (gitDir && pointerChange(worktreePath, gitDir) && (await deleteWorktree(worktreePath))) {
    return { removed: true, wasClean: false };
  }
  if (committed) {
    if (!(await deleteWorktree(worktreePath))) {
      await runGit(git, ['worktree', 'remove', '--force', '--force', worktreePath]);
    }
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
}

/**
 * Deletes a committed worktree as `git worktree remove --force --force` does, without a git process (4 to 5 ms of a
 * calc attempt's end here): its folder first, then its private git folder, so an interrupted removal leaves an entry
 * whose folder is gone, which the next claim prunes. False, leaving the rest to git, when this is not that simple: no
 * private git folder (not a linked worktree), submodules checked out in it (git refuses to remove those), or a folder
 * that cannot be deleted.
 */
async function deleteWorktree(worktreePath: string): Promise<boolean> {
  const gitDir = await privateGitDir(worktreePath);
  if (!gitDir || !isDirectorySync(gitDir) || isDirectorySync(path.join(gitDir, 'modules'))) return false;
  try {
    await rm(worktreePath, { recursive: true, force: true });
  } catch {
    return false;
  }
  // The worktree's folder is gone: left behind, its entry is pruned by the next claim.
  await rm(gitDir, { recursive: true, force: true }).catch(() => undefined);
  return true;
}
