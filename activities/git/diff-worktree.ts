// The change an attempt made: everything in the worktree (new, modified, deleted files) against the base commit.
import { GitError } from 'simple-git';
import { unknownBaseSha } from './failures.js';
import { openWorktree, type Git } from './run-git.js';
import { runInOwnWorktree } from './stale-lock.js';

export interface WorktreeDiff {
  /** Unified diff with a/ and b/ prefixes; renames appear as a deletion plus an addition. */
  diff: string;
  changedFiles: string[];
  stat: { files: number; insertions: number; deletions: number };
}

// Stable, parseable output whatever the user's config: no color, no external or textconv drivers, no rename pairs.
const diffArgs = ['--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];

/**
 * Stages everything (`git add -A`, so untracked files count and .gitignore is honoured) and diffs the index
 * against `baseSha`; the index then holds exactly the reviewed change, which commit records. A stale `index.lock`
 * older than `startedAtMs` is removed (see runInOwnWorktree). Throws non-retryable `InvalidWorktree` or
 * `UnknownBaseRef`, retryable `GitLocked`.
 */
export async function diffWorktree(input: {
  worktreePath: string;
  baseSha: string;
  startedAtMs?: number;
}): Promise<WorktreeDiff> {
  const git = await openWorktree(input.worktreePath);
  // A sha starting with "-" would be read as an option.
  if (input.baseSha.startsWith('-')) throw unknownBaseSha(input.baseSha, input.worktreePath);
  await runInOwnWorktree(git, input.worktreePath, input.startedAtMs ?? Date.now(), ['add', '-A']);
  const { patch, numstat } = await diffAgainst(git, input.baseSha, input.worktreePath);
  return {
    diff: patch,
    changedFiles: numstat.files.map((file) => file.file),
    stat: { files: numstat.files.length, insertions: numstat.insertions, deletions: numstat.deletions },
  };
}

async function diffAgainst(git: Git, base: string, worktreePath: string) {
  try {
    // One git process: the patch with a/ and b/ prefixes, and exact line counts per file (binary files count as
    // changed with 0 lines), paths unquoted.
    return await git.diffWithNumstat([...diffArgs, '--src-prefix=a/', '--dst-prefix=b/', `${base}^{commit}`, '--']);
  } catch (error) {
    if (error instanceof GitError && /bad (object|revision)|unknown revision|not a valid/i.test(error.message))
      throw unknownBaseSha(base, worktreePath);
    throw error;
  }
}
