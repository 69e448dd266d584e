// The review's rules run by the test activity when no reviewer model is set: one staged diff serves the path rules
// (which stop the tests) and the content rules (conflict markers, secrets, Python syntax), which run beside the tests
// on what was staged (the changed Python files are read before the tests start).
import type { ReviewResult } from '../../domain/records.js';
import { diffWorktree, type WorktreeDiff } from '../git/diff-worktree.js';
import { reviewDiff, type ReviewChangesInput } from '../review/index.js';
import type { SourceRead } from '../review/python-syntax.js';
import type { PathPolicy } from './path-policy.js';

export type RuleReviewOptions = Pick<ReviewChangesInput, 'secretValues' | 'artifactDir' | 'hostId' | 'sandbox'>;

/** Stages the change and diffs it once, for the path rules and the review alike. */
export function diffChange(worktreePath: string, policy: PathPolicy): Promise<WorktreeDiff> {
  return diffWorktree({ worktreePath, baseSha: policy.baseSha });
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
