// The review's rules run by the test activity when no reviewer model is set: the path rules stop the tests, so they run
// on the list of changed paths taken while the change is staged; the content rules (conflict markers, secrets, Python
// syntax) run beside the tests on the staged diff, taken meanwhile (the changed Python files are read before the tests
// start).
import type { ReviewResult } from '../../domain/records.js';
import { diffStaged, diffWorktree, stageAndListChanges, type WorktreeDiff } from '../git/diff-worktree.js';
import { reviewDiff, type ReviewChangesInput } from '../review/index.js';
import type { SourceRead } from '../review/python-syntax.js';
import type { PathPolicy } from './path-policy.js';

export type RuleReviewOptions = Pick<ReviewChangesInput, 'secretValues' | 'artifactDir' | 'hostId' | 'sandbox'>;

/** The staged change: its changed paths now, for the path rules, and its diff when asked, for the content rules. */
export interface StagedChange {
  changedFiles: string[];
  diff: () => Promise<WorktreeDiff>;
}

/**
 * Stages the change and lists its paths (stageAndListChanges: the diff waits until it is asked for); when that cannot
 * be done, stages and diffs it at once (diffWorktree) and lists the diff's paths.
 */
export async function stageChange(worktreePath: string, policy: PathPolicy): Promise<StagedChange> {
  const input = { worktreePath, baseSha: policy.baseSha };
  // Its git processes are asked for at once, before the caller's next step (see stageAndListChanges).
  const listed = await stageAndListChanges(input);
  if (!listed) {
    const diff = await diffWorktree(input);
    return { changedFiles: diff.changedFiles, diff: () => Promise.resolve(diff) };
  }
  return { changedFiles: listed, diff: () => diffStaged(input) };
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
