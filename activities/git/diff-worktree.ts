// The change an attempt made: everything in the worktree (new, modified, deleted files) against the base commit.
import { GitError } from './git-error.js';
import { unknownBaseSha } from './failures.js';
import { splitStatus, statusWithIgnored } from './ignored-files.js';
import { openWorktree, openWorktreeSync, readWorktreeHeadSync, type Git } from './run-git.js';
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
export async function diffWorktree(input: DiffInput): Promise<WorktreeDiff> {
  const git = await openWorktree(input.worktreePath);
  // A sha starting with "-" would be read as an option.
  if (input.baseSha.startsWith('-')) throw unknownBaseSha(input.baseSha, input.worktreePath);
  await runInOwnWorktree(git, input.worktreePath, input.startedAtMs ?? Date.now(), ['add', '-A']);
  return diffOf(git, input);
}

interface DiffInput {
  worktreePath: string;
  baseSha: string;
  startedAtMs?: number;
}

/** The paths of a change (for the review's path rules) and the ignored paths beside it (see ignored-files.ts). */
export interface ListedChange {
  changedFiles: string[];
  ignored: string[];
}

/**
 * Stages everything, as diffWorktree does, and lists the paths changed since `baseSha` in a second git process beside
 * the staging (`git status`: staged, unstaged and untracked-not-ignored, no rename pairs), so the review's path rules
 * need not wait for the diff, which diffStaged takes afterwards. The list holds every path the staged diff will: git
 * status reads the index before or after the staging rewrites it, and either way a path whose content differs from
 * HEAD is listed (it may list more: a path staged by an earlier run and changed back since). The same status lists
 * the ignored paths (an ignored folder as itself). Undefined, with nothing staged, when HEAD is not at `baseSha`
 * (status compares with HEAD): diffWorktree is the way then.
 */
export async function stageAndListChanges(input: DiffInput): Promise<ListedChange | undefined> {
  // Both git processes are asked for before this returns its promise: the caller starts its sandbox only then.
  const git = openWorktreeSync(input.worktreePath);
  if (readWorktreeHeadSync(input.worktreePath).sha !== input.baseSha) return undefined;
  const [, status] = await Promise.all([
    runInOwnWorktree(git, input.worktreePath, input.startedAtMs ?? Date.now(), ['add', '-A']),
    // Never takes the index lock (the staging beside it holds it); every file of an untracked folder is listed.
    git.raw(statusWithIgnored),
  ]);
  const { changed, ignored } = splitStatus(status);
  return { changedFiles: changed, ignored };
}

/** The staged change against `baseSha` (after diffWorktree's or stageAndListChanges's staging). */
export async function diffStaged(input: DiffInput): Promise<WorktreeDiff> {
  return diffOf(await openWorktree(input.worktreePath), input);
}

async function diffOf(git: Git, input: DiffInput): Promise<WorktreeDiff> {
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
