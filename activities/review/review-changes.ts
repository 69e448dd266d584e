// The review node's policy checks on an attempt's diff; the change passes when no rule finds anything.
import type { Finding, ReviewResult } from '../../domain/records.js';
import { findAttributeDrivers } from '../../domain/attribute-drivers.js';
import { findPlantedGitPaths, findSecretsInPaths } from '../../domain/path-findings.js';
import { secretForms } from '../../domain/secret-forms.js';
import { scrubText } from '../../domain/secrets.js';
import { writeArtifact } from '../artifacts.js';
import { diffStaged, diffWorktree, type WorktreeDiff } from '../git/diff-worktree.js';
import { parseAddedLines } from './added-lines.js';
import { checkConflictMarkers, checkSecrets } from './content-rules.js';
import { checkAllowedPaths, checkEmptyDiff, checkTestEdits } from './path-rules.js';
import { checkLinks } from './link-rules.js';
import { parsePythonSources, readPythonSources, type SourceRead } from './python-syntax.js';
import type { SandboxPolicy } from '../sandbox/index.js';

export interface ReviewChangesInput {
  worktreePath: string;
  baseSha: string;
  /** Repo-relative paths or globs the task may change; empty allows all. */
  allowedPaths: string[];
  allowTestEdits: boolean;
  secretValues: string[];
  artifactDir: string;
  hostId: string;
  /** How the syntax check runs the worktree's files (the worker's sandbox by default). */
  sandbox?: SandboxPolicy;
  /**
   * The test node staged the change it tested: the review reads the index as it is (what the tests ran against, and
   * what the commit records), not the worktree, which the test run may have written to since.
   */
  staged?: boolean;
}

/**
 * Runs the rules empty_diff, test_file_edited, path_not_allowed, conflict_marker, link_out_of_repo, secret_in_diff,
 * secret_in_path, git_folder_planted, git_attributes_driver and python_syntax, and stores the diff (secrets scrubbed) as the artifact diff.patch.
 */
export async function reviewChanges(input: ReviewChangesInput): Promise<ReviewResult> {
  const change = { worktreePath: input.worktreePath, baseSha: input.baseSha };
  return reviewDiff(input, await (input.staged ? diffStaged(change) : diffWorktree(change)));
}

/**
 * The review of a diff already taken (staged) by `diffWorktree`, so a caller that needs the diff too takes it once;
 * `sources` are the changed Python files when the caller read them already (before starting the tests).
 */
export async function reviewDiff(
  input: ReviewChangesInput,
  worktreeDiff: WorktreeDiff,
  sources?: SourceRead[],
): Promise<ReviewResult> {
  const { diff, changedFiles, stat } = worktreeDiff;
  const added = parseAddedLines(diff);
  const secrets = checkSecrets(added, input.secretValues);
  const findings: Finding[] = [
    ...checkEmptyDiff(changedFiles),
    ...checkTestEdits(changedFiles, input.allowTestEdits),
    ...checkAllowedPaths(changedFiles, input.allowedPaths),
    ...findSecretsInPaths(changedFiles, input.secretValues),
    ...findPlantedGitPaths(changedFiles),
    ...findAttributeDrivers(added),
    ...checkConflictMarkers(added),
    ...(await checkLinks(input.worktreePath, changedFiles)),
    ...secrets.findings,
    ...(await parsePythonSources(
      sources ?? (await readPythonSources(input.worktreePath, changedFiles)),
      input.sandbox,
    )),
  ];
  // A path may carry a secret base64- or hex-encoded too: those forms leave the record and the stored diff as well.
  const hidden = [...secretForms(input.secretValues), ...secrets.matches];
  const stored = await writeArtifact({
    dir: input.artifactDir,
    name: 'diff.patch',
    content: scrubText(diff, hidden),
    hostId: input.hostId,
    secretValues: hidden,
  });
  return {
    passed: findings.length === 0,
    findings: findings.map((finding) => ({
      ...finding,
      message: scrubText(finding.message, hidden),
      ...(finding.file === undefined ? {} : { file: scrubText(finding.file, hidden) }),
    })),
    changedFiles: changedFiles.map((file) => scrubText(file, hidden)),
    diffStat: stat,
    diff: stored,
  };
}
