// Removes an attempt's worktree, reporting whether it was clean; the branch (and any commit) stays.
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
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
  // What an earlier removal of this worktree left when it was killed while deleting (a retry after a crash).
  await deleteLeftovers(worktreePath);
  if (!(await isDirectory(worktreePath))) return { removed: false, wasClean: true };
  if (!(await isWorktreeOf(worktreePath, input.repoPath))) {
    throw invalidWorktree(worktreePath, `is not a linked worktree of repository ${JSON.stringify(input.repoPath)}`);
  }
  // Read before the repository's lock is taken: a big worktree's snapshot holds no other task's claim or commit.
  const wasClean = input.committed !== true && (await isUnchanged(worktreePath));
  const { leftover, ...result } = await withRepoLock(await canonical(input.repoPath), async () => {
    const removed = await removeRegistered(git, worktreePath, wasClean);
    removeAttemptGitDirRecord(worktreePath);
    return removed;
  });
  // The files go after the repository's lock is released: a worktree of 120,000 files took minutes to delete, and held
  // every other claim and commit in the repository that long.
  if (leftover) await rm(leftover, { recursive: true, force: true }).catch(() => undefined);
  return result;
}

async function removeRegistered(
  git: Git,
  worktreePath: string,
  wasClean: boolean,
): Promise<{ removed: boolean; wasClean: boolean; leftover?: string }> {
  // A worktree whose `.git` was rewritten is deleted without git: `git worktree remove` would read that pointer.
  const gitDir = recordedAttemptGitDir(worktreePath);
  if (gitDir && pointerChange(worktreePath, gitDir)) {
    const deleted = await deleteWorktree(worktreePath);
    if (deleted) return { removed: true, wasClean: false, ...deleted };
  }
  const deleted = await deleteWorktree(worktreePath);
  if (deleted) return { removed: true, wasClean, ...deleted };
  // Twice --force: a dirty or locked worktree goes too (no status is run); a lock held by another git process is
  // waited for.
  await runGit(git, ['worktree', 'remove', '--force', '--force', worktreePath]);
  return { removed: true, wasClean };
}

/** The name a worktree's folder takes while its files are deleted, outside the repository's lock. */
const leftoverMark = '.removing-';

/** Deletes what removals of `worktreePath` left (a killed removal's renamed folder); any worker may: rm is idempotent. */
async function deleteLeftovers(worktreePath: string): Promise<void> {
  const parent = path.dirname(worktreePath);
  const prefix = `${path.basename(worktreePath)}${leftoverMark}`;
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry.startsWith(prefix)))
    await rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined);
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
async function deleteWorktree(worktreePath: string): Promise<{ leftover?: string } | false> {
  const gitDir = await privateGitDir(worktreePath);
  if (!gitDir || !isDirectorySync(gitDir) || isDirectorySync(path.join(gitDir, 'modules'))) return false;
  // Renamed in one step (same folder, same file system): its files are deleted once the lock is released.
  const leftover = `${worktreePath}${leftoverMark}${randomBytes(4).toString('hex')}`;
  let moved = true;
  try {
    await rename(worktreePath, leftover);
  } catch {
    moved = false;
    try {
      await rm(worktreePath, { recursive: true, force: true });
    } catch {
      return false;
    }
  }
  // The worktree's folder is gone: left behind, its entry is pruned by the next claim.
  await rm(gitDir, { recursive: true, force: true }).catch(() => undefined);
  return moved ? { leftover } : {};
}
