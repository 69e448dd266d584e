// Results of repositories by URL go back to the remote: the task's branch is pushed, never forced.
import path from 'node:path';
import { GitError } from './git-error.js';
import { redactUrls } from '../../domain/repo-url.js';
import { readSmallFile } from '../small-files.js';
import { pushRejected, worktreeError } from './failures.js';
import { openGit, privateGitDir } from './run-git.js';
import { remoteEnv } from './repo-cache.js';
import { canonical } from './worktree-owner.js';

// What git says when the remote refuses the update: not a fast-forward, or no permission.
const rejected =
  /\[rejected\]|\[remote rejected\]|non-fast-forward|fetch first|permission denied|denied|protected branch|not allowed/i;

/**
 * Pushes `sha` to `branch` on the clone's `origin` (no force): a retried push of the same sha is a no-op. Returns the
 * remote's URL without credentials. Throws non-retryable `PushRejected` (the commit stays on the local branch) or
 * retryable `WorktreeError` when the remote does not answer.
 */
export async function pushBranch(input: {
  worktreePath: string;
  branch: string;
  sha: string;
}): Promise<{ remote: string }> {
  // From the clone itself (bare, under the worker's folder): never with the worktree, where repository code ran, as
  // the folder git starts in.
  const clone = await cloneOf(input.worktreePath);
  const git = openGit(clone).env(remoteEnv);
  const remote = redactUrls((await git.raw(['config', '--get', 'remote.origin.url'])).trim());
  try {
    await git.raw(['push', '--porcelain', 'origin', `${input.sha}:refs/heads/${input.branch}`]);
  } catch (error) {
    const message = redactUrls(error instanceof Error ? error.message : String(error));
    if (error instanceof GitError && rejected.test(message)) {
      const reason = rejectionReason(message);
      const clone = (
        await git.raw(['rev-parse', '--path-format=absolute', '--git-common-dir']).catch(() => "this host's clone")
      ).trim();
      throw pushRejected(input.branch, remote, reason, clone);
    }
    throw worktreeError('push', message);
  }
  return { remote };
}

/** The remote's reason from git's porcelain line (`[rejected] (fetch first)`), else git's last line. */
function rejectionReason(message: string): string {
  const said = /\[(?:remote )?rejected\]\s*(.*)/.exec(message)?.[1]?.trim();
  return said ? said.replace(/^\((.*)\)$/, '$1') : (message.trim().split('\n').pop() ?? 'rejected');
}

/** True when the worktree belongs to one of this host's clones of a URL (under `<workDir>/repos/`). */
export async function isCachedCloneWorktree(worktreePath: string, workDir: string): Promise<boolean> {
  const privateDir = await privateGitDir(worktreePath);
  if (!privateDir) return false;
  const common = await canonical(commonDirOf(privateDir));
  const repos = await canonical(path.resolve(workDir, 'repos'));
  return common.startsWith(`${repos}${path.sep}`);
}

/** The repository (common git folder) the attempt's recorded git folder belongs to. */
async function cloneOf(worktreePath: string): Promise<string> {
  const privateDir = await privateGitDir(worktreePath);
  if (!privateDir) throw worktreeError('push', `${worktreePath} has no git folder of its own`);
  return commonDirOf(privateDir);
}

function commonDirOf(privateDir: string): string {
  return path.resolve(privateDir, (readSmallFile(path.join(privateDir, 'commondir')) ?? '../..').trim());
}
