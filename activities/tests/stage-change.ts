// The test node's change, staged as the commit would hold it: the review's path rules run on its listed paths before
// the tests start (a refused change never executes), and the tests see the change without the ignored files it made.
import { diffStaged, diffWorktree, stageAndListChanges, type WorktreeDiff } from '../git/diff-worktree.js';
import { removeIgnoredFiles, removeIgnoredPaths } from '../git/ignored-files.js';
import type { PathPolicy } from './path-policy.js';

/** The staged change: its changed paths now, for the path rules, and its diff when asked, for the content rules. */
export interface StagedChange {
  changedFiles: string[];
  diff: () => Promise<WorktreeDiff>;
  /** Ignored files the attempt made, removed so the tests see what the commit would hold (activities/git/ignored-files.ts). */
  ignoredRemoved: string[];
}

/**
 * Stages the change and lists its paths (stageAndListChanges: the diff waits until it is asked for), and removes the
 * ignored files it lists; when that cannot be done, stages and diffs it at once (diffWorktree), lists the diff's paths
 * and removes the ignored files (one git process more).
 */
export async function stageChange(worktreePath: string, policy: PathPolicy): Promise<StagedChange> {
  const input = { worktreePath, baseSha: policy.baseSha };
  // Its git processes are asked for at once, before the caller's next step (see stageAndListChanges).
  const listed = await stageAndListChanges(input);
  if (!listed) {
    const diff = await diffWorktree(input);
    const ignoredRemoved = await removeIgnoredFiles(worktreePath);
    return { changedFiles: diff.changedFiles, diff: () => Promise.resolve(diff), ignoredRemoved };
  }
  const ignoredRemoved = await removeIgnoredPaths(worktreePath, listed.ignored);
  return { changedFiles: listed.changedFiles, diff: () => diffStaged(input), ignoredRemoved };
}
