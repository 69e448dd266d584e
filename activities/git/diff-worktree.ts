// The change an attempt made, as a diff between trees: the base commit's and the snapshot's (snapshot-tree.ts). No git
// command here has the worktree as its work tree: the review reads exactly the tree the commit will record.
import type { Finding } from '../../domain/records.js';
import { unknownBaseSha } from './failures.js';
import { GitError } from './git-error.js';
import { splitNumstatAndPatch } from './git-process.js';
import { readRecordedBase } from './create-worktree.js';
import { snapshotWorktree } from './snapshot-tree.js';
import { withTreeGit, type TreeGit } from './tree-git.js';

export interface WorktreeDiff {
  /** Unified diff with a/ and b/ prefixes; renames appear as a deletion plus an addition. */
  diff: string;
  changedFiles: string[];
  stat: { files: number; insertions: number; deletions: number };
}

/** A diff of the snapshot's tree, with the tree's id and what the snapshot did not take. */
export interface SnapshotDiff extends WorktreeDiff {
  treeSha: string;
  findings: Finding[];
}

interface DiffInput {
  worktreePath: string;
  baseSha: string;
}

/**
 * Takes the worktree's change as a tree (snapshotWorktree) and diffs it against `baseSha`. Throws non-retryable
 * `InvalidWorktree` or `UnknownBaseRef`.
 */
export async function diffWorktree(input: DiffInput): Promise<SnapshotDiff> {
  const snapshot = await snapshotWorktree(input);
  const diff = await diffTree({ ...input, treeSha: snapshot.treeSha });
  return { ...diff, treeSha: snapshot.treeSha, findings: snapshot.findings };
}

/** The diff from `baseSha` to the tree `treeSha` (a snapshot's), read from the object store only. */
export async function diffTree(input: DiffInput & { treeSha: string; pathspec?: string[] }): Promise<WorktreeDiff> {
  return withTreeGit(input.worktreePath, (git) => diffTreesWith(git, input));
}

// Stable, parseable output whatever the user's config: no color, no external or textconv drivers, no rename pairs.
const diffArgs = ['--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--src-prefix=a/', '--dst-prefix=b/'];

/** `git diff --numstat --patch` between two tree-ishes with a tree git (see tree-git.ts). */
export async function diffTreesWith(
  git: TreeGit,
  input: DiffInput & { treeSha: string; pathspec?: string[] },
): Promise<WorktreeDiff> {
  let output: string;
  try {
    output = await git.text([
      'diff',
      ...diffArgs,
      '--numstat',
      '--patch',
      '-z',
      `${input.baseSha}^{tree}`,
      input.treeSha,
      '--',
      ...(input.pathspec ?? []),
    ]);
  } catch (error) {
    if (error instanceof GitError && /bad (object|revision)|unknown revision|not a valid/i.test(error.message))
      throw unknownBaseSha(input.baseSha, input.worktreePath);
    throw error;
  }
  const { patch, numstat } = splitNumstatAndPatch(output);
  return {
    diff: patch,
    changedFiles: numstat.files.map((file) => file.file),
    stat: { files: numstat.files.length, insertions: numstat.insertions, deletions: numstat.deletions },
  };
}

/**
 * The coder's look at its change (git_diff): the worktree taken as a tree, diffed against `ref` (a commit the model
 * names), limited to `pathspec`. Undefined when `ref` names no commit.
 */
export async function diffWorktreeFrom(
  worktreePath: string,
  ref: string,
  pathspec: string[] = [],
): Promise<(WorktreeDiff & { findings: Finding[] }) | undefined> {
  return withTreeGit(worktreePath, async (git) => {
    const resolve = async (name: string) =>
      (await git.text(['rev-parse', '--verify', '--quiet', `${name}^{commit}`]).catch(() => '')).trim() || undefined;
    const from = ref.startsWith('-') ? undefined : await resolve(ref);
    if (!from) return undefined;
    const baseSha = (await readRecordedBase(worktreePath)) ?? (await resolve('HEAD')) ?? from;
    const snapshot = await snapshotWorktree({ worktreePath, baseSha });
    const diff = await diffTreesWith(git, { worktreePath, baseSha: from, treeSha: snapshot.treeSha, pathspec });
    return { ...diff, findings: snapshot.findings };
  });
}
