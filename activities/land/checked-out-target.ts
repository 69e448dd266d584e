// The trap of landing on a local branch: the branch checked out in a work tree of the user's. Moving the ref alone
// would make that tree look changed (every file the landing brought reads as undone), so the tree moves with it:
// fast-forwarded by git's own `merge --ff-only` when it holds no uncommitted change to a tracked file, refused when
// it does. That git runs in the user's own work tree (never one where repository code of a task ran), with the
// house's settings: no hooks, no fsmonitor, no editor (docs/review-and-land.md).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isDirectorySync, readSmallFile } from '../small-files.js';
import { GitError } from '../git/git-error.js';
import { openGit } from '../git/run-git.js';
import type { TreeGit } from '../git/tree-git.js';
import { landingRefused } from './landing-failures.js';

/** The work tree that has `branch` checked out, if any: the main one or a linked one of the repository. */
export async function findCheckout(git: TreeGit, branch: string): Promise<string | undefined> {
  const wanted = `ref: refs/heads/${branch}`;
  const headOf = (gitDir: string) => readSmallFile(path.join(gitDir, 'HEAD'))?.trim();
  if (!isBare(git.gitDir) && headOf(git.gitDir) === wanted) return path.dirname(git.gitDir);
  const linked = path.join(git.gitDir, 'worktrees');
  if (!isDirectorySync(linked)) return undefined;
  for (const name of await readdir(linked).catch(() => [])) {
    const dir = path.join(linked, name);
    if (headOf(dir) !== wanted) continue;
    const pointer = readSmallFile(path.join(dir, 'gitdir'))?.trim();
    if (pointer) return path.dirname(pointer);
  }
  return undefined;
}

/** A repository whose config says `bare = true` has no main work tree. */
function isBare(gitDir: string): boolean {
  const config = readSmallFile(path.join(gitDir, 'config')) ?? '';
  return /^\s*bare\s*=\s*true\s*$/im.test(config);
}

/**
 * Moves the checked-out branch and the user's tree together to `merged` (a fast-forward of the head it was merged
 * onto). Throws `LandingRefused` when the tree has uncommitted changes to tracked files, or git refuses the
 * fast-forward (an untracked file in the way): the person decides, the queue never touches their work.
 */
export async function fastForwardCheckout(
  checkout: string,
  branch: string,
  input: { merged: string; expectedHead: string },
): Promise<void> {
  const git = openGit(checkout);
  const changed = (await git.raw(['status', '--porcelain', '--untracked-files=no'])).trimEnd();
  if (changed) {
    const files = changed
      .split('\n')
      .map((line) => line.slice(3))
      .slice(0, 5);
    throw landingRefused(
      `${branch} is checked out in ${checkout} with uncommitted changes (${files.join(', ')}): the queue lands only on a clean checkout; commit or stash them (or check out another branch there) and land again`,
    );
  }
  try {
    await git.raw(['merge', '--ff-only', '--no-edit', '--quiet', input.merged]);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    // The branch moved meanwhile (not a fast-forward any more): the caller reads the head again and merges again.
    const head = (await git.raw(['rev-parse', 'HEAD'])).trim();
    if (head !== input.expectedHead) return;
    throw landingRefused(
      `${branch} is checked out in ${checkout} and git refused to fast-forward it (${error.message.trim().split('\n').at(-1) ?? ''}): move what is in the way and land again`,
    );
  }
}
