// Where a landing's git runs: the repository's own git folder (a local repository) or this host's bare clone of a
// URL, always through the tree git (no work tree: activities/git/tree-git.ts).
import { isRepoUrl, redactUrls } from '../../domain/repo-url.js';
import { shortBranch } from '../../domain/landing.js';
import { GitError } from '../git/git-error.js';
import { cachedClonePath, remoteEnv } from '../git/repo-cache.js';
import { invalidRepo, worktreeError } from '../git/failures.js';
import { openRepo, tryGit } from '../git/run-git.js';
import { withGitDir, type TreeGit } from '../git/tree-git.js';
import { landingRefused } from './landing-failures.js';

export interface LandingRepo {
  /** The task's repository as it names it (a path or a URL). */
  repo: string;
  target: string;
  workDir: string;
}

/** The repository's common git folder: a local repository's own, or this host's clone of the URL. */
export async function landingGitDir(input: LandingRepo): Promise<string> {
  if (isRepoUrl(input.repo)) return cachedClonePath(input.workDir, input.repo);
  const git = await openRepo(input.repo);
  const dir = await tryGit(git, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (dir === undefined) throw invalidRepo(input.repo, 'is not a git repository');
  return dir.trim();
}

/** Runs `step` with the tree git of the landing's repository. */
export async function withLandingGit<T>(input: LandingRepo, step: (git: TreeGit, privateDir: string) => Promise<T>) {
  return withGitDir(await landingGitDir(input), step);
}

/**
 * The target's current head: the local branch, or the remote's branch fetched now (a URL). Throws `LandingRefused`
 * when the branch does not exist: the queue lands on a branch, it never creates one.
 */
export async function readTargetHead(git: TreeGit, input: LandingRepo): Promise<string> {
  const branch = shortBranch(input.target);
  if (isRepoUrl(input.repo)) {
    try {
      await git.run(['fetch', '--quiet', '--no-tags', 'origin', `+refs/heads/${branch}:refs/taskloop-land/${branch}`], {
        env: remoteEnv,
      });
    } catch (error) {
      const message = redactUrls(error instanceof Error ? error.message : String(error));
      if (/couldn't find remote ref/i.test(message)) throw noSuchBranch(input);
      throw worktreeError('fetch', message);
    }
    return (await git.text(['rev-parse', '--verify', `refs/taskloop-land/${branch}^{commit}`])).trim();
  }
  try {
    return (await git.text(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])).trim();
  } catch (error) {
    if (error instanceof GitError) throw noSuchBranch(input);
    throw error;
  }
}

const noSuchBranch = (input: LandingRepo) =>
  landingRefused(
    `landOn ${JSON.stringify(input.target)} is not a branch of ${redactUrls(input.repo)}: create it, or land on an existing branch`,
  );

/** True when `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(git: TreeGit, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await git.run(['merge-base', '--is-ancestor', ancestor, descendant]);
    return true;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false;
    throw error;
  }
}
