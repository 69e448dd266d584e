// The review's path rules, checked before the tests run: a change the review would refuse never executes.
import type { Finding } from '../../domain/records.js';
import { checkAllowedPaths, checkTestEdits } from '../review/path-rules.js';

export interface PathPolicy {
  baseSha: string;
  allowedPaths: string[];
  allowTestEdits: boolean;
}

/** Findings of the rules test_file_edited and path_not_allowed on a change's paths (stageChange lists them). */
export function pathRuleFindings(changedFiles: string[], policy: PathPolicy): Finding[] {
  return [
    ...checkTestEdits(changedFiles, policy.allowTestEdits),
    ...checkAllowedPaths(changedFiles, policy.allowedPaths),
  ];
}
