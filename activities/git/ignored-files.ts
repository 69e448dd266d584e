// Files the ignore rules ignore that an attempt made. Its worktree was checked out clean, so every ignored file in it
// is the attempt's: the coder's, or written by code the coder wrote (its test runs execute it). The commit never holds
// them and the review's path rules never see them (the snapshot leaves them out: snapshot-tree.ts), yet pytest would
// load them: an ignored `tests/conftest.py` can make any test pass. They are removed before the tests run, so the
// tests see what the commit would hold.
import { rm } from 'node:fs/promises';
import path from 'node:path';

/** How many removed paths a test result names (the count of the rest is not kept: payloads stay small). */
export const IGNORED_NAMED = 20;

/** Removes ignored paths the snapshot listed (relative to the worktree; a folder `name/` with all it holds). */
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
