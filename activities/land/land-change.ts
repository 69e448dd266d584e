// The ref update of a landing: a compare-and-swap of the local branch (`git update-ref <new> <expected-old>`) or a
// push with lease (a URL). A target that moved since the merge is reported, never overwritten; a change the target
// already holds (an earlier try landed it) is reported landed, never landed twice.
import { isRepoUrl, redactUrls } from '../../domain/repo-url.js';
import { shortBranch, type LandFound } from '../../domain/landing.js';
import { GitError } from '../git/git-error.js';
import { remoteEnv } from '../git/repo-cache.js';
import { worktreeError } from '../git/failures.js';
import type { TreeGit } from '../git/tree-git.js';
import { fastForwardCheckout, findCheckout } from './checked-out-target.js';
import { landingRefused } from './landing-failures.js';
import { isAncestor, readTargetHead, withLandingGit, type LandingRepo } from './landing-repo.js';

export interface LandChangeInput extends LandingRepo {
  /** The change (the task's commit), the tested merge to land, and the head it was merged onto. */
  sha: string;
  merged: string;
  expectedHead: string;
}

export async function landChange(input: LandChangeInput): Promise<LandFound> {
  return withLandingGit(input, async (git) => {
    const head = await readTargetHead(git, input);
    const found = await alreadyLanded(git, input, head);
    if (found) return found;
    if (head !== input.expectedHead) return { kind: 'moved', targetHead: head };
    if (isRepoUrl(input.repo)) await pushWithLease(git, input);
    else await updateLocalBranch(git, input);
    return (await alreadyLanded(git, input, await readTargetHead(git, input))) ?? movedNow(git, input);
  });
}

async function alreadyLanded(git: TreeGit, input: LandChangeInput, head: string): Promise<LandFound | undefined> {
  if (head === input.merged) return { kind: 'landed', landed: head, alreadyThere: false };
  if (await isAncestor(git, input.sha, head)) return { kind: 'landed', landed: head, alreadyThere: true };
  return undefined;
}

async function movedNow(git: TreeGit, input: LandChangeInput): Promise<LandFound> {
  return { kind: 'moved', targetHead: await readTargetHead(git, input) };
}

/**
 * A local branch. Checked out in a work tree of the user's: fast-forwarded there with `git merge --ff-only` when that
 * tree has no uncommitted change to a tracked file, refused when it has (docs/review-and-land.md); else the ref alone.
 */
async function updateLocalBranch(git: TreeGit, input: LandChangeInput): Promise<void> {
  const branch = shortBranch(input.target);
  const checkout = await findCheckout(git, branch);
  if (checkout) return fastForwardCheckout(checkout, branch, input);
  try {
    await git.run([
      'update-ref',
      '-m',
      `taskloop land ${input.sha}`,
      `refs/heads/${branch}`,
      input.merged,
      input.expectedHead,
    ]);
  } catch (error) {
    // The compare failed (the branch moved, or a concurrent update held its lock): the caller reads the head again.
    if (!(error instanceof GitError)) throw error;
  }
}

// What a remote says when it refuses the update for good: a protected branch, no permission, a hook's refusal.
const refusedForGood =
  /protected branch|permission denied|denied|not allowed|pre-receive hook declined|\[remote rejected\]/i;

async function pushWithLease(git: TreeGit, input: LandChangeInput): Promise<void> {
  const branch = shortBranch(input.target);
  const lease = `--force-with-lease=refs/heads/${branch}:${input.expectedHead}`;
  try {
    await git.run(['push', '--porcelain', lease, 'origin', `${input.merged}:refs/heads/${branch}`], { env: remoteEnv });
  } catch (error) {
    const message = redactUrls(error instanceof Error ? error.message : String(error));
    if (!(error instanceof GitError)) throw error;
    if (/stale info|fetch first|non-fast-forward/i.test(message)) return;
    if (refusedForGood.test(message))
      throw landingRefused(
        `${redactUrls(input.repo)} refused the push to ${branch} (${lastLine(message)}): the branch is protected or this host may not push to it; land through the remote's own review, or let taskloop push to another branch`,
      );
    throw worktreeError('push', message);
  }
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)?.slice(0, 200) ?? '';
