// The review's path rules, checked before the tests run: a change the review would refuse never executes.
import { findPlantedGitPaths, findSecretsInPaths } from '../../domain/path-findings.js';
import type { Finding } from '../../domain/records.js';
import { checkAllowedPaths, checkTestEdits } from '../review/path-rules.js';

export interface PathPolicy {
  baseSha: string;
  allowedPaths: string[];
  allowTestEdits: boolean;
}

/**
 * Findings of the rules test_file_edited, path_not_allowed, secret_in_path and git_folder_planted on a change's paths
 * (stageChange lists them).
 */
export function pathRuleFindings(changedFiles: string[], policy: PathPolicy, secretValues: string[] = []): Finding[] {
  return [
    ...checkTestEdits(changedFiles, policy.allowTestEdits),
    ...checkAllowedPaths(changedFiles, policy.allowedPaths),
    ...findSecretsInPaths(changedFiles, secretValues),
    ...findPlantedGitPaths(changedFiles),
  ];
}
