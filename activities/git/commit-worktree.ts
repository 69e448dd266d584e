// Commits an attempt's change once: the trailer `Taskloop-Run: <workflowId>/<attempt>` lets a retry find its own commit.
import { GitError } from './git-error.js';
import { runTrailer, withRunTrailer } from '../../domain/commit-message.js';
import type { CommitResult } from '../../domain/records.js';
import { assertAttempt } from '../artifacts.js';
import { branchForCommit } from './branch-for-commit.js';
import { readRecordedBase } from './create-worktree.js';
import { branchMismatch, nothingToCommit } from './failures.js';
import { openWorktree, readWorktreeHead, type Git } from './run-git.js';
import { runInOwnWorktree } from './stale-lock.js';

export interface CommitWorktreeInput {
  worktreePath: string;
  /** The preferred branch name (`taskloop/<taskId>`); a later run of the task gets `<branch>-runN` instead. */
  branch: string;
  workflowId: string;
  attempt: number;
  /** The whole message (domain/commit-message.ts); the run trailer is added when it lacks one. */
  message: string;
  /** True when the review staged the worktree (`git add -A`) and nothing changed since: commit what was reviewed. */
  staged?: boolean;
  /** When the activity started: an `index.lock` older than this is a crashed process's debris (default: now). */
  startedAtMs?: number;
}

// A fixed identity, so commits work on hosts without a git identity and are recognisable as the loop's own.
// No automatic maintenance either: a commit would otherwise start `git maintenance` (or gc) in the background.
const identity = [
  'user.name=taskloop',
  'user.email=taskloop@localhost',
  'commit.gpgsign=false',
  'maintenance.auto=false',
  'gc.auto=0',
];
const author = 'taskloop <taskloop@localhost>';

/**
 * Stages everything (unless the review did) and makes one commit carrying the run trailer on the worktree's detached
 * HEAD, then puts it on a branch of its own (see branchForCommit); a retry that finds that commit makes none
 * (created=false) and returns the branch holding it. Throws non-retryable `NothingToCommit`, `BranchMismatch` or
 * `InvalidWorktree`, retryable `GitLocked` (a stale `index.lock` from before `startedAtMs` is removed instead).
 */
export async function commitWorktree(input: CommitWorktreeInput): Promise<CommitResult> {
  assertAttempt(input.attempt);
  const startedAtMs = input.startedAtMs ?? Date.now();
  const git = await openWorktree(input.worktreePath, identity);
  const head = await readWorktreeHead(input.worktreePath);
  // Claims detach HEAD; a worktree made before that has the task's branch checked out, which a commit only advances.
  if (head.branch !== undefined && head.branch !== input.branch)
    throw branchMismatch(input.worktreePath, input.branch, head.branch);

  const trailer = runTrailer(input);
  const reflog = `taskloop: ${input.workflowId} attempt ${input.attempt}`;
  const base = await readRecordedBase(input.worktreePath);
  // HEAD still at the base: no commit of this attempt can exist yet, so there is nothing to look for.
  const own = head.sha !== undefined && head.sha === base ? undefined : await findOwnCommit(git, trailer, base);
  if (own)
    return {
      sha: own,
      branch: await branchForCommit(git, own, input.branch, reflog, input.worktreePath),
      created: false,
    };

  // --cleanup=whitespace keeps "#123" lines; hooks are off for every taskloop git command (see run-git).
  const commit = [
    'commit',
    '--quiet',
    '--cleanup=whitespace',
    `--author=${author}`,
    '-m',
    withRunTrailer(input.message, input),
  ];
  if (!input.staged) await runInOwnWorktree(git, input.worktreePath, startedAtMs, ['add', '-A']);
  if (!(await tryCommit(git, input.worktreePath, startedAtMs, commit))) {
    // The index may not hold the change after all (e.g. the review ran elsewhere): stage and try once more.
    if (input.staged) await runInOwnWorktree(git, input.worktreePath, startedAtMs, ['add', '-A']);
    if (!input.staged || !(await tryCommit(git, input.worktreePath, startedAtMs, commit)))
      throw nothingToCommit(input.worktreePath);
  }
  const sha = (await readWorktreeHead(input.worktreePath)).sha ?? (await git.raw(['rev-parse', 'HEAD'])).trim();
  return { sha, branch: await branchForCommit(git, sha, input.branch, reflog, input.worktreePath), created: true };
}

/** Commits; false when git says there is nothing to commit. */
async function tryCommit(git: Git, worktreePath: string, startedAtMs: number, args: string[]): Promise<boolean> {
  try {
    await runInOwnWorktree(git, worktreePath, startedAtMs, args);
    return true;
  } catch (error) {
    if (
      error instanceof GitError &&
      /nothing to commit|no changes added to commit|nothing added to commit/i.test(error.message)
    )
      return false;
    throw error;
  }
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
