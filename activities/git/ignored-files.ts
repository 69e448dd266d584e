// Files git ignores that an attempt made. Its worktree was checked out clean, so every ignored file in it is the
// attempt's: the coder's, or written by code the coder wrote (its test runs execute it). The commit never holds them
// and the review's path rules never see them (`git add -A` honours .gitignore), yet pytest would load them: an ignored
// `tests/conftest.py` can make any test pass. They are removed before the tests run, so the tests see what the commit
// would hold.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { openWorktree } from './run-git.js';

/** How many removed paths a test result names (the count of the rest is not kept: payloads stay small). */
export const IGNORED_NAMED = 20;

/** `git status` arguments that list ignored paths too, an ignored folder as itself (`!! build/`), not its files. */
export const statusWithIgnored = [
  '--no-optional-locks',
  'status',
  '--porcelain=v1',
  '-z',
  '--no-renames',
  '--untracked-files=all',
  '--ignored=matching',
];

/** Splits porcelain v1 -z records into changed paths and ignored ones (`!!`). */
export function splitStatus(status: string): { changed: string[]; ignored: string[] } {
  const changed: string[] = [];
  const ignored: string[] = [];
  // Each record: two status letters, a space, the path (unquoted with -z).
  for (const record of status.split('\0')) {
    if (record.length <= 3) continue;
    (record.startsWith('!! ') ? ignored : changed).push(record.slice(3));
  }
  return { changed, ignored };
}

/** Removes ignored paths listed by git (relative to the worktree; a folder with all it holds). */
export async function removeIgnoredPaths(worktreePath: string, ignored: string[]): Promise<string[]> {
  const root = path.resolve(worktreePath);
  const inside = ignored.filter((name) => {
    const full = path.resolve(root, name);
    return full.startsWith(root + path.sep) && !name.split(/[\\/]/).includes('.git');
  });
  // rm removes a symbolic link itself, never what it points to.
  await Promise.all(inside.map((name) => rm(path.join(root, name), { recursive: true, force: true })));
  return inside.map((name) => name.replace(/\/$/, ''));
}

/** Lists the worktree's ignored paths (one git process) and removes them; returns their names. */
export async function removeIgnoredFiles(worktreePath: string): Promise<string[]> {
  const git = await openWorktree(worktreePath);
  const { ignored } = splitStatus(await git.raw(statusWithIgnored));
  return removeIgnoredPaths(worktreePath, ignored);
}
