// The change an attempt made: everything in the worktree (new, modified, deleted files) against the base commit.
import { unknownBaseSha } from './failures.js';
import { openWorktree, tryGit } from './run-git.js';

export interface WorktreeDiff {
  /** Unified diff with a/ and b/ prefixes; renames appear as a deletion plus an addition. */
  diff: string;
  changedFiles: string[];
  stat: { files: number; insertions: number; deletions: number };
}

// Stable, parseable output whatever the user's config: no color, no external or textconv drivers, no rename pairs.
const diffArgs = ['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];

/**
 * Stages everything (`git add -A`, so untracked files count and .gitignore is honoured) and diffs the index
 * against `baseSha`. Throws non-retryable `InvalidWorktree` or `UnknownBaseRef`.
 */
export async function diffWorktree(input: { worktreePath: string; baseSha: string }): Promise<WorktreeDiff> {
  const git = await openWorktree(input.worktreePath);
  const verified = input.baseSha.startsWith('-')
    ? undefined
    : await tryGit(git, ['rev-parse', '--verify', '--quiet', `${input.baseSha}^{commit}`]);
  if (!verified?.trim()) throw unknownBaseSha(input.baseSha, input.worktreePath);
  const base = verified.trim();

  await git.raw(['add', '-A']);
  const diff = await git.raw([...diffArgs, '--src-prefix=a/', '--dst-prefix=b/', base, '--']);
  const numstat = await git.raw([...diffArgs, '--numstat', '-z', base, '--']);
  const rows = parseNumstat(numstat);
  return {
    diff,
    changedFiles: rows.map((row) => row.file),
    stat: {
      files: rows.length,
      insertions: rows.reduce((sum, row) => sum + row.insertions, 0),
      deletions: rows.reduce((sum, row) => sum + row.deletions, 0),
    },
  };
}

/** Parses `--numstat -z` records `added\tdeleted\tpath\0`; binary files count `-` as 0 lines. */
export function parseNumstat(text: string): { file: string; insertions: number; deletions: number }[] {
  const rows: { file: string; insertions: number; deletions: number }[] = [];
  for (const record of text.split('\0')) {
    const match = /^\n?(\d+|-)\t(\d+|-)\t(.+)$/s.exec(record);
    if (!match) continue;
    const [, added = '-', deleted = '-', file = ''] = match;
    rows.push({ file, insertions: added === '-' ? 0 : Number(added), deletions: deleted === '-' ? 0 : Number(deleted) });
  }
  return rows;
}
