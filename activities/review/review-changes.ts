// The review node's policy checks on an attempt's diff; the change passes when no rule finds anything.
import type { ChangeSnapshot, Finding, ReviewResult } from '../../domain/records.js';
import { findAttributeDrivers } from '../../domain/attribute-drivers.js';
import { findPlantedGitPaths, findSecretsInPaths, redactFindings, redactPath } from '../../domain/path-findings.js';
import { boundFindings, boundPaths } from '../../domain/payload-bounds.js';
import { encodedSecretForms } from '../../domain/secret-forms.js';
import { scrubText } from '../../domain/secrets.js';
import { writeArtifact } from '../artifacts.js';
import { diffTree, type WorktreeDiff } from '../git/diff-worktree.js';
import { snapshotWorktree } from '../git/snapshot-tree.js';
import { readTreeFiles } from '../git/tree-blobs.js';
import { parseAddedLines } from './added-lines.js';
import { checkConflictMarkers, checkSecrets } from './content-rules.js';
import { checkAllowedPaths, checkEmptyDiff, checkTestEdits } from './path-rules.js';
import { linkFinding } from './link-rules.js';
import { MAX_SOURCE_BYTES, parsePythonSources, type SourceRead } from './python-syntax.js';
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
   * The change the test node took before the tests ran (its tree and findings): the review reads that tree, not the
   * worktree, which the test run may have written to since. Absent (a run whose test node did not take one): the
   * change is taken now.
   */
  snapshot?: ChangeSnapshot;
}

/** What the review reads of the change besides its diff: all of it from the tree, none from the worktree. */
export interface ReviewedTree {
  treeSha: string;
  /** What the snapshot did not take (a nested git folder, a FIFO, a file over the bounds). */
  snapshotFindings: Finding[];
  /** The changed `.py` files of the tree. */
  sources: SourceRead[];
  /** The changed links of the tree, with their target text. */
  links: { file: string; target: string }[];
}

/**
 * Runs the rules empty_diff, test_file_edited, path_not_allowed, conflict_marker, link_out_of_repo, secret_in_diff,
 * secret_in_path, git_folder_planted, git_attributes_driver and python_syntax on the snapshot's tree (with the
 * snapshot's own findings), and stores the diff (secrets scrubbed) as the artifact diff.patch. The result names the
 * tree, which the commit records.
 */
export async function reviewChanges(input: ReviewChangesInput): Promise<ReviewResult> {
  const { worktreePath, baseSha } = input;
  const snapshot = input.snapshot ?? (await snapshotWorktree({ worktreePath, baseSha }));
  const diff = await diffTree({ worktreePath, baseSha, treeSha: snapshot.treeSha });
  const files = await readTreeFiles(worktreePath, snapshot.treeSha, diff.changedFiles, MAX_SOURCE_BYTES);
  const sources: SourceRead[] = [];
  const links: { file: string; target: string }[] = [];
  for (const file of files) {
    if (file.mode === '120000') links.push({ file: file.path, target: 'bytes' in file ? file.bytes.toString() : '' });
    else if (file.path.endsWith('.py'))
      sources.push(
        'bytes' in file ? { name: file.path, source: file.bytes } : { name: file.path, tooLarge: file.tooLarge },
      );
  }
  return reviewDiff(input, diff, { treeSha: snapshot.treeSha, snapshotFindings: snapshot.findings, sources, links });
}

/** The review of a diff and the tree it was taken from (see reviewChanges). */
export async function reviewDiff(
  input: ReviewChangesInput,
  worktreeDiff: WorktreeDiff,
  tree: ReviewedTree,
): Promise<ReviewResult> {
  const { diff, changedFiles, stat } = worktreeDiff;
  const added = parseAddedLines(diff);
  const secrets = checkSecrets(added, input.secretValues);
  const findings: Finding[] = [
    ...tree.snapshotFindings,
    ...checkEmptyDiff(changedFiles),
    ...checkTestEdits(changedFiles, input.allowTestEdits),
    ...checkAllowedPaths(changedFiles, input.allowedPaths),
    ...findSecretsInPaths(changedFiles, input.secretValues),
    ...findPlantedGitPaths(changedFiles),
    ...findAttributeDrivers(added),
    ...checkConflictMarkers(added),
    ...tree.links.flatMap((link) => linkFinding(link.file, link.target) ?? []),
    ...secrets.findings,
    ...(await parsePythonSources(tree.sources, input.sandbox)),
  ];
  // A path may carry a secret base64- or hex-encoded too (at any alignment, split across folders): those forms leave
  // the record and the stored diff as well.
  const forms = encodedSecretForms(input.secretValues);
  const hidden = [...forms, ...secrets.matches];
  const scrub = (text: string) => scrubText(text, hidden);
  const stored = await writeArtifact({
    dir: input.artifactDir,
    name: 'diff.patch',
    content: redactPath(scrubText(diff, hidden), forms),
    hostId: input.hostId,
    secretValues: hidden,
  });
  // Bounded whatever the change (domain/payload-bounds.ts): the whole of it is in diff.patch, its count in diffStat.
  const listed = boundPaths(changedFiles);
  const scrubbed = redactFindings(findings, forms, scrub);
  return {
    passed: findings.length === 0,
    findings: boundFindings(scrubbed),
    changedFiles: listed.paths.map((file) => redactPath(scrub(file), forms)),
    ...(listed.omitted > 0 ? { changedFilesOmitted: listed.omitted } : {}),
    diffStat: stat,
    diff: stored,
    treeSha: tree.treeSha,
  };
}
