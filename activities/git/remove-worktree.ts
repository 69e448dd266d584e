// Removes an attempt's worktree, reporting whether it was clean; the branch (and any commit) stays.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { isDirectorySync } from '../small-files.js';
import { invalidWorktree } from './failures.js';
import { pointerChange, recordedAttemptGitDir, removeAttemptGitDirRecord } from './attempt-git-dir.js';
import { isDirectory, openRepo, privateGitDir, readWorktreeHead, runGit, withRepoLock, type Git } from './run-git.js';
import { canonical, isWorktreeOf } from './worktree-owner.js';
import { readRecordedBase } from './create-worktree.js';
import { changesInWorktree } from './snapshot-tree.js';

/**
 * Removes the worktree without running git over it (its folder deleted, then its private git folder); wasClean says
 * whether a snapshot of it showed no change. Idempotent: a missing worktree gives removed=false (and wasClean=true).
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
  // Read before the repository's lock is taken: a big worktree's snapshot holds no other task's claim or commit.
  const wasClean = input.committed !== true && (await isUnchanged(worktreePath));
  return withRepoLock(await canonical(input.repoPath), async () => {
    const result = await removeRegistered(git, worktreePath, wasClean);
    removeAttemptGitDirRecord(worktreePath);
    return result;
  });
}

async function removeRegistered(
  git: Git,
  worktreePath: string,
  wasClean: boolean,
): Promise<{ removed: boolean; wasClean: boolean }> {
  // A worktree whose `.git` was rewritten is deleted without git: `git worktree remove` would read that pointer.
  const gitDir = recordedAttemptGitDir(worktreePath);
  if (gitDir && pointerChange(worktreePath, gitDir) && (await deleteWorktree(worktreePath))) {
    return { removed: true, wasClean: false };
  }
  if (!(await deleteWorktree(worktreePath))) {
    // Twice --force: a dirty or locked worktree goes too (no status is run); a lock held by another git process is
    // waited for.
    await runGit(git, ['worktree', 'remove', '--force', '--force', worktreePath]);
  }
  return { removed: true, wasClean };
}

/**
 * Whether it was clean is read from its bytes (a snapshot): `git worktree remove` without --force would run `git
 * status` over the worktree, and that reads its nested repositories and attributes (docs/security.md).
 * True when a snapshot of the worktree equals its base (no change, nothing left out); false when it cannot tell. */
async function isUnchanged(worktreePath: string): Promise<boolean> {
  // Against its HEAD: a worktree whose attempt committed is clean when it still holds just that commit.
  const head = (await readWorktreeHead(worktreePath)).sha ?? (await readRecordedBase(worktreePath));
  if (!head) return false;
  try {
    const changes = await changesInWorktree({ worktreePath, baseSha: head });
    return changes.changedFiles.length === 0 && changes.findings.length === 0;
  } catch {
    return false;
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
