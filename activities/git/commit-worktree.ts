// Commits an attempt's change once: the tree the review read (by its id) with `commit-tree`, never a `git commit` in
// the worktree. The trailer `Taskloop-Run: <workflowId>/<attempt>` lets a retry find its own commit.
import { ApplicationFailure } from '@temporalio/common';
import { runTrailer, withRunTrailer } from '../../domain/commit-message.js';
import type { CommitResult } from '../../domain/records.js';
import { assertAttempt } from '../artifacts.js';
import { branchForCommit } from './branch-for-commit.js';
import { readRecordedBase } from './create-worktree.js';
import { branchMismatch, nothingToCommit } from './failures.js';
import { readWorktreeHead, tryGit, type Git } from './run-git.js';
import { snapshotWorktree } from './snapshot-tree.js';
import { asGit, withTreeGit } from './tree-git.js';

export interface CommitWorktreeInput {
  worktreePath: string;
  /** The preferred branch name (`taskloop/<taskId>`); a later run of the task gets `<branch>-runN` instead. */
  branch: string;
  workflowId: string;
  attempt: number;
  /** The whole message (domain/commit-message.ts); the run trailer is added when it lacks one. */
  message: string;
  /** The tree the review read (ReviewResult.treeSha): committed byte for byte. Absent: the change is taken now. */
  treeSha?: string;
  /** Histories recorded before snapshots (the review staged the worktree): the change is taken now. */
  staged?: boolean;
  startedAtMs?: number;
  /**
   * A review round after a person asked for changes: the commit the worktree started from, the tip of `branch`. The
   * branch moves forward from it to the new commit (compare-and-swap), so it keeps every round's change.
   */
  advanceFrom?: string;
}

/**
 * Makes one commit of the reviewed tree on the attempt's HEAD (detached at the base) carrying the run trailer, moves
 * that HEAD to it, then puts it on a branch of its own (see branchForCommit); a retry that finds that commit makes
 * none (created=false) and returns the branch holding it. Throws non-retryable `NothingToCommit`, `BranchMismatch`,
 * `InvalidWorktree` or `WorktreeTampered`.
 */
export async function commitWorktree(input: CommitWorktreeInput): Promise<CommitResult> {
  assertAttempt(input.attempt);
  const head = await readWorktreeHead(input.worktreePath);
  // Claims detach HEAD; a worktree made before that has the task's branch checked out, which a commit only advances.
  if (head.branch !== undefined && head.branch !== input.branch)
    throw branchMismatch(input.worktreePath, input.branch, head.branch);
  const trailer = runTrailer(input);
  const reflog = `taskloop: ${input.workflowId} attempt ${input.attempt}`;
  const base = await readRecordedBase(input.worktreePath);
  return withTreeGit(input.worktreePath, async (treeGit) => {
    const git = asGit(treeGit);
    // HEAD still at the base: no commit of this attempt can exist yet, so there is nothing to look for.
    const own = head.sha !== undefined && head.sha === base ? undefined : await findOwnCommit(git, trailer, base);
    if (own) return { sha: own, branch: await keepOnBranch(git, own, input, reflog), created: false };

    const parent = head.sha ?? (await git.raw(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    const tree = input.treeSha ?? (await takeTree(input.worktreePath, base ?? parent));
    const parentTree = (await tryGit(git, ['rev-parse', '--verify', `${parent}^{tree}`]))?.trim();
    if (parentTree === tree) throw nothingToCommit(input.worktreePath);
    const message = Buffer.from(cleanupWhitespace(withRunTrailer(input.message, input)));
    const sha = (await treeGit.text(['commit-tree', tree, '-p', parent, '-F', '-'], { input: message })).trim();
    // The attempt's HEAD (detached, or the task's branch in an old worktree) moves only from the parent it had.
    await git.raw(['update-ref', '-m', reflog, 'HEAD', sha, parent]);
    return { sha, branch: await keepOnBranch(git, sha, input, reflog), created: true };
  });
}

/**
 * The branch that keeps `sha`: a later review round's commit moves the task's branch forward from the change the
 * person read (a retry finds it there already); any other commit, or a branch someone moved meanwhile, gets a branch
 * of its own (branchForCommit), so nothing is overwritten and no commit is lost.
 */
async function keepOnBranch(git: Git, sha: string, input: CommitWorktreeInput, reflog: string): Promise<string> {
  if (input.advanceFrom !== undefined) {
    const ref = `refs/heads/${input.branch}`;
    if ((await tryGit(git, ['update-ref', '-m', reflog, ref, sha, input.advanceFrom])) !== undefined)
      return input.branch;
    if ((await tryGit(git, ['rev-parse', '--verify', '--quiet', ref]))?.trim() === sha) return input.branch;
  }
  return branchForCommit(git, sha, input.branch, reflog, input.worktreePath);
}

/** The change taken now (a run whose review named no tree); what the snapshot could not take fails the commit. */
async function takeTree(worktreePath: string, baseSha: string): Promise<string> {
  const snapshot = await snapshotWorktree({ worktreePath, baseSha });
  if (snapshot.findings.length > 0)
    throw ApplicationFailure.create({
      type: 'WorktreeTampered',
      message: `the worktree ${worktreePath} holds what cannot be committed: ${snapshot.findings.map((f) => f.message).join('; ')}`,
      nonRetryable: true,
    });
  return snapshot.treeSha;
}

/** The message as `git commit --cleanup=whitespace` leaves it: no trailing spaces or outer blank lines, no runs of them. */
export function cleanupWhitespace(message: string): string {
  const lines = message.split('\n').map((line) => line.replace(/\s+$/, ''));
  const kept = lines.filter((line, index) => line !== '' || (index > 0 && lines[index - 1] !== ''));
  while (kept[0] === '') kept.shift();
  while (kept.at(-1) === '') kept.pop();
  return `${kept.join('\n')}\n`;
}

// An attempt's commit sits at the tip of its branch; a bounded look-back keeps the search cheap in huge histories.
const lookBack = 100;

/**
 * The newest commit since the attempt's base whose message has exactly the trailer line. Only commits after the base
 * count: an earlier run of the same workflow id may have the same trailer and be merged into the base already.
 */
async function findOwnCommit(git: Git, trailer: string, baseSha: string | undefined): Promise<string | undefined> {
  const range = baseSha ? `${baseSha}..HEAD` : 'HEAD';
  const log = await git.raw(['log', `--max-count=${lookBack}`, '--format=%H%x1f%B%x1e', range]).catch(() => '');
  for (const record of log.split('\x1e')) {
    const [sha, body = ''] = record.split('\x1f');
    if (sha?.trim() && body.split('\n').some((line) => line.trim() === trailer)) return sha.trim();
  }
  return undefined;
}
