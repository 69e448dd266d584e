// The test node's change, taken as the commit would hold it: a tree built from the worktree's bytes (no git runs over
// the worktree: activities/git/snapshot-tree.ts). The review's path rules run on its paths before the tests start (a
// refused change never executes), and the tests see the change without the ignored files it made.
import type { Finding } from '../../domain/records.js';
import { diffTree, type WorktreeDiff } from '../git/diff-worktree.js';
import { removeIgnoredPaths } from '../git/ignored-files.js';
import { snapshotWorktree } from '../git/snapshot-tree.js';
import type { PathPolicy } from './path-policy.js';

/** The change taken: its tree (which the review and the commit read by id), its paths, and what was not taken. */
export interface StagedChange {
  treeSha: string;
  changedFiles: string[];
  /** The diff of its tree against the base, when asked (the tests' node stores it for a change that failed them). */
  diff: () => Promise<WorktreeDiff>;
  /** What the snapshot did not take (a nested git folder, a FIFO, a file over the bounds): the tests do not run. */
  findings: Finding[];
  /** Ignored files the attempt made, removed so the tests see what the commit would hold (activities/git/ignored-files.ts). */
  ignoredRemoved: string[];
}

/**
 * Takes the change as a tree and removes the ignored files the snapshot listed. A change adding more than `maxNewFiles`
 * files (the run's bound) is not taken: its one finding refuses it.
 */
export async function stageChange(
  worktreePath: string,
  policy: PathPolicy,
  maxNewFiles: number,
): Promise<StagedChange> {
  const snapshot = await snapshotWorktree({ worktreePath, baseSha: policy.baseSha, limits: { maxNewFiles } });
  const ignoredRemoved = await removeIgnoredPaths(worktreePath, snapshot.ignored);
  return {
    treeSha: snapshot.treeSha,
    changedFiles: snapshot.changedFiles,
    diff: () => diffTree({ worktreePath, baseSha: policy.baseSha, treeSha: snapshot.treeSha }),
    findings: snapshot.findings,
    ignoredRemoved,
  };
}
