// The commit node's success ends with the worktree's removal in the same activity. The commit's result is saved beside
// the attempt's artifacts first, so a retry that finds the worktree gone returns that result instead of failing.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommitResult } from '../../domain/records.js';
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
  const commit = (await readSaved<T>(file)) ?? (await save(file, await input.commit()));
  try {
    // Committed: what is left in the worktree is what the tests wrote, so no clean check (one git process less).
    await removeWorktree({ ...input.removal, committed: true });
    return { ...commit, worktreeRemoved: true };
  } catch {
    return { ...commit, worktreeRemoved: false };
  }
}

async function readSaved<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

async function save<T>(file: string, result: T): Promise<T> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(result), 'utf8');
  await rename(temp, file);
  return result;
}
