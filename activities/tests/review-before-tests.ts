// The review's rules run by the test activity when no reviewer model is set: the path rules stop the tests, so they run
// on the list of changed paths taken while the change is staged; the content rules (conflict markers, secrets, Python
// syntax) run beside the tests on the staged diff, taken meanwhile (the changed Python files are read before the tests
// start).
import type { ReviewResult } from '../../domain/records.js';
import { diffStaged, diffWorktree, stageAndListChanges, type WorktreeDiff } from '../git/diff-worktree.js';
import { removeIgnoredFiles, removeIgnoredPaths } from '../git/ignored-files.js';
import { reviewDiff, type ReviewChangesInput } from '../review/index.js';
import type { SourceRead } from '../review/python-syntax.js';
import type { PathPolicy } from './path-policy.js';

export type RuleReviewOptions = Pick<ReviewChangesInput, 'secretValues' | 'artifactDir' | 'hostId' | 'sandbox'>;

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

export function reviewChange(
  worktreePath: string,
  policy: PathPolicy,
  options: RuleReviewOptions,
  diff: WorktreeDiff,
  sources: SourceRead[],
): Promise<ReviewResult> {
  return reviewDiff({ worktreePath, ...policy, ...options }, diff, sources);
}
