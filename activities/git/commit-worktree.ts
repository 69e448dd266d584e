// Commits an attempt's change once: the trailer `Taskloop-Run: <workflowId>/<attempt>` lets a retry find its own commit.
import type { SimpleGit } from 'simple-git';
import type { CommitResult } from '../../domain/records.js';
import { assertAttempt } from '../artifacts.js';
import { branchForCommit } from './branch-for-commit.js';
import { readRecordedBase } from './create-worktree.js';
import { branchMismatch, nothingToCommit } from './failures.js';
import { openWorktree, tryGit } from './run-git.js';

export interface CommitWorktreeInput {
  worktreePath: string;
  /** The preferred branch name (`taskloop/<taskId>`); a later run of the task gets `<branch>-runN` instead. */
  branch: string;
  workflowId: string;
  attempt: number;
  message: string;
}

// A fixed identity, so commits work on hosts without a git identity and are recognisable as the loop's own.
const identity = ['user.name=taskloop', 'user.email=taskloop@localhost', 'commit.gpgsign=false'];
const author = 'taskloop <taskloop@localhost>';

/** The trailer line that marks the commit of one workflow attempt. */
export function runTrailer(workflowId: string, attempt: number): string {
  return `Taskloop-Run: ${workflowId}/${attempt}`;
}

/**
 * Stages everything and makes one commit carrying the run trailer on the worktree's detached HEAD, then puts it on a
 * branch of its own (see branchForCommit); a retry that finds that commit makes none (created=false) and returns the
 * branch holding it. Throws non-retryable `NothingToCommit`, `BranchMismatch` or `InvalidWorktree`.
 */
export async function commitWorktree(input: CommitWorktreeInput): Promise<CommitResult> {
  assertAttempt(input.attempt);
  const git = await openWorktree(input.worktreePath, identity);
  const current = (await tryGit(git, ['symbolic-ref', '--quiet', '--short', 'HEAD']))?.trim();
  // Claims detach HEAD; a worktree made before that has the task's branch checked out, which a commit only advances.
  if (current !== undefined && current !== '' && current !== input.branch) throw branchMismatch(input.worktreePath, input.branch, current);

  const trailer = runTrailer(input.workflowId, input.attempt);
  const reflog = `taskloop: ${input.workflowId} attempt ${input.attempt}`;
  const own = await findOwnCommit(git, trailer, await readRecordedBase(input.worktreePath));
  if (own) return { sha: own, branch: await branchForCommit(git, own, input.branch, reflog), created: false };

  await git.raw(['add', '-A']);
  const staged = await git.raw(['diff', '--cached', '--name-only', '-z']);
  if (staged.length === 0) throw nothingToCommit(input.worktreePath);

  const subject = input.message.trim() || `taskloop: ${input.workflowId} attempt ${input.attempt}`;
  // --no-verify: local hooks are not part of the task's checks; --cleanup=whitespace keeps "#123" lines.
  await git.raw(['commit', '--no-verify', '--cleanup=whitespace', `--author=${author}`, '-m', `${subject}\n\n${trailer}\n`]);
  const sha = (await git.raw(['rev-parse', 'HEAD'])).trim();
  return { sha, branch: await branchForCommit(git, sha, input.branch, reflog), created: true };
}

// An attempt's commit sits at the tip of its branch; a bounded look-back keeps the search cheap in huge histories.
const lookBack = 100;

/**
 * The newest commit since the attempt's base whose message has exactly the trailer line. Only commits after the base
 * count: an earlier run of the same workflow id may have the same trailer and be merged into the base already.
 */
async function findOwnCommit(git: SimpleGit, trailer: string, baseSha: string | undefined): Promise<string | undefined> {
  const range = baseSha ? `${baseSha}..HEAD` : 'HEAD';
  const log = await tryGit(git, ['log', `--max-count=${lookBack}`, '--format=%H%x1f%B%x1e', range]);
  for (const record of (log ?? '').split('\x1e')) {
    const [sha, body = ''] = record.split('\x1f');
    if (sha?.trim() && body.split('\n').some((line) => line.trim() === trailer)) return sha.trim();
  }
  return undefined;
}
