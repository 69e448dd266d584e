// The commit node's success ends with the worktree's removal in the same activity. The commit's result is saved beside
// the attempt's artifacts first, so a retry that finds the worktree gone returns that result instead of failing.
import path from 'node:path';
import type { CommitResult } from '../../domain/records.js';
import { readSavedResult, saveResult } from '../saved-result.js';
import { removeWorktree } from './remove-worktree.js';

const SAVED_RESULT = 'commit-result.json';

export interface CommitThenRemoveInput<T extends CommitResult> {
  /** Makes (or finds) the attempt's commit; called at most until its result is saved. */
  commit: () => Promise<T>;
  /** The attempt's own folder (per workflow run and attempt) where the result is kept. */
  stateDir: string;
  /** Absent: commit only. */
  removal?: { repoPath: string; worktreePath: string };
}

/**
 * Commits, saves the result, then removes the worktree; `worktreeRemoved` is false when the removal failed (the
 * workflow's own removal call then retries it and reports why), so a removal problem never fails a made commit.
 */
export async function commitThenRemove<T extends CommitResult>(
  input: CommitThenRemoveInput<T>,
): Promise<T & { worktreeRemoved?: boolean }> {
  if (!input.removal) return input.commit();
  const file = path.join(input.stateDir, SAVED_RESULT);
  const commit = (await readSavedResult<T>(file)) ?? (await saveResult(file, await input.commit()));
  try {
    // Committed: what is left in the worktree is what the tests wrote, so no clean check (one git process less).
    await removeWorktree({ ...input.removal, committed: true });
    return { ...commit, worktreeRemoved: true };
  } catch {
    return { ...commit, worktreeRemoved: false };
  }
}
