// Reading the repository's registered worktrees (`git worktree list --porcelain`).
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { SimpleGit } from 'simple-git';

export interface WorktreeEntry {
  path: string;
  head?: string;
  /** Short branch name (without refs/heads/), absent when detached. */
  branch?: string;
  /** The first entry is the main worktree, which must never be removed. */
  main: boolean;
}

/** Parses porcelain output: blocks of `key value` lines separated by blank lines. */
export function parseWorktreeList(porcelain: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  for (const block of porcelain.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => line.length > 0);
    const entry: WorktreeEntry = { path: '', main: entries.length === 0 };
    for (const line of lines) {
      const space = line.indexOf(' ');
      const key = space === -1 ? line : line.slice(0, space);
      const value = space === -1 ? '' : line.slice(space + 1);
      if (key === 'worktree') entry.path = value;
      else if (key === 'HEAD') entry.head = value;
      else if (key === 'branch') entry.branch = value.replace(/^refs\/heads\//, '');
    }
    if (entry.path) entries.push(entry);
  }
  return entries;
}

/** Resolves symlinks (e.g. /tmp on macOS) so two spellings of one folder compare equal. */
async function canonical(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Every worktree registered in the repository, the main one first. */
export async function listWorktrees(git: SimpleGit): Promise<WorktreeEntry[]> {
  return parseWorktreeList(await git.raw(['worktree', 'list', '--porcelain']));
}

/** The registered worktree at `dir`, if any. */
export async function findWorktree(git: SimpleGit, dir: string): Promise<WorktreeEntry | undefined> {
  const wanted = await canonical(dir);
  for (const entry of await listWorktrees(git)) {
    if ((await canonical(entry.path)) === wanted) return entry;
  }
  return undefined;
}
