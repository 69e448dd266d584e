// The repository map the coder starts from: every file git would see, with line counts for Python.
import { listWorktreeFiles } from '../git/snapshot-tree.js';
import { readConfinedFile } from '../untrusted-files.js';

/** A larger file is listed without a count. */
const MAX_COUNTED_BYTES = 4 * 1024 * 1024;

/**
 * The line count of a listed file; undefined when it is not a regular file inside the worktree (deleted, a link out,
 * a FIFO the tests left, which a plain read would wait on forever) or too large to count.
 */
async function countLines(worktreePath: string, file: string): Promise<number | undefined> {
  const read = await readConfinedFile(worktreePath, file, MAX_COUNTED_BYTES);
  if (!read.ok) return undefined;
  const { text } = read;
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Tracked and untracked-not-ignored files of the worktree, sorted (walked as data: no git runs over it). */
export async function listRepoFiles(worktreePath: string): Promise<string[]> {
  return listWorktreeFiles(worktreePath);
}

/**
 * Lists tracked and untracked-not-ignored files of the worktree, one per line (`.py` files with their
 * line count), at most `maxFiles` of them. `files`: the worktree's listing, when the caller already has it.
 */
export async function buildRepoMap(
  worktreePath: string,
  options: { maxFiles?: number; files?: string[] } = {},
): Promise<string> {
  const maxFiles = options.maxFiles ?? 300;
  const files = options.files ?? (await listRepoFiles(worktreePath));
  const shown = files.slice(0, maxFiles);
  const lines = await Promise.all(
    shown.map(async (file) => {
      if (!file.endsWith('.py')) return file;
      const count = await countLines(worktreePath, file);
      return count === undefined ? file : `${file} (${count} lines)`;
    }),
  );
  if (files.length > shown.length)
    lines.push(`... and ${files.length - shown.length} more files (use list_files to see them)`);
  return lines.length > 0 ? lines.join('\n') : '(the repository has no files yet)';
}
