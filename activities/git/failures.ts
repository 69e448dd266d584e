// The typed failures of the git activities: each names the value, what is wrong and the fix.
import { ApplicationFailure } from '@temporalio/common';

const fail = (type: string, message: string): ApplicationFailure =>
  ApplicationFailure.create({ type, message, nonRetryable: true });

export const invalidRepo = (repoPath: string, problem: string): ApplicationFailure =>
  fail('InvalidRepo', `repoPath ${JSON.stringify(repoPath)} ${problem}: pass the path of a git repository`);

export const emptyRepo = (repoPath: string, baseRef: string): ApplicationFailure =>
  fail(
    'EmptyRepo',
    `repoPath ${JSON.stringify(repoPath)} has no commits, so baseRef ${JSON.stringify(baseRef)} cannot exist: make an initial commit first`,
  );

export const unknownBaseRef = (baseRef: string, repoPath: string): ApplicationFailure =>
  fail(
    'UnknownBaseRef',
    `baseRef ${JSON.stringify(baseRef)} is not a commit, branch or tag in repository ${JSON.stringify(repoPath)}: pass an existing ref (e.g. "main")`,
  );

export const invalidTaskId = (taskId: string): ApplicationFailure =>
  fail(
    'InvalidTaskId',
    `taskId ${JSON.stringify(taskId)} does not make a valid branch name taskloop/<taskId>: use letters, digits, "-", "_" and "."`,
  );

export const invalidWorktree = (worktreePath: string, problem: string): ApplicationFailure =>
  fail(
    'InvalidWorktree',
    `worktreePath ${JSON.stringify(worktreePath)} ${problem}: pass the worktreePath returned by createWorktree`,
  );

export const unknownBaseSha = (baseSha: string, worktreePath: string): ApplicationFailure =>
  fail(
    'UnknownBaseRef',
    `baseSha ${JSON.stringify(baseSha)} is not a commit in worktree ${JSON.stringify(worktreePath)}: pass the baseSha returned by createWorktree`,
  );

export const branchMismatch = (
  worktreePath: string,
  expected: string,
  actual: string | undefined,
): ApplicationFailure =>
  fail(
    'BranchMismatch',
    `worktree ${JSON.stringify(worktreePath)} has ${actual ? `branch ${JSON.stringify(actual)}` : 'a detached HEAD'} checked out, not branch ${JSON.stringify(expected)}: pass the branch returned by createWorktree`,
  );

export const nothingToCommit = (worktreePath: string): ApplicationFailure =>
  fail(
    'NothingToCommit',
    `worktree ${JSON.stringify(worktreePath)} has no changes and no earlier commit of this run: the coder must change files before commit`,
  );

// Retryable infrastructure faults (class environment_problem, retry kind rerun_node): a retry of the step can help.
const retryable = (type: string, message: string, details: Record<string, string>): ApplicationFailure =>
  ApplicationFailure.create({ type, message, nonRetryable: false, details: [details] });

export const gitLocked = (lockPath: string, command: string): ApplicationFailure =>
  retryable(
    'GitLocked',
    `git ${command} found ${lockPath} held by another git process and it stayed held: if no git process runs there, delete the lock file`,
    { lockPath, command },
  );

export const worktreeError = (command: string, problem: string): ApplicationFailure =>
  retryable('WorktreeError', `git ${command} failed: ${problem.trim().split('\n').slice(-3).join(' ').slice(0, 400)}`, {
    command,
  });

export const pushRejected = (branch: string, remote: string, reason: string, kept: string): ApplicationFailure =>
  ApplicationFailure.create({
    type: 'PushRejected',
    message: `push of branch ${JSON.stringify(branch)} to ${remote} was rejected (${reason}): the remote branch moved or this host may not push there; nothing was forced and the commit stays on ${JSON.stringify(branch)} in ${kept}`,
    nonRetryable: true,
    details: [{ branch, remote, reason }],
  });
