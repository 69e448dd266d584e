// Directory walking shared by list_files and search: sorted, bounded, never into .git or symlinks.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Directories that are never the coder's business (VCS internals and tool caches). */
export const skippedDirectories = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.venv',
  'venv',
  '.tox',
]);

export interface WalkEntry {
  /** Repo-relative path with `/` separators. */
  relative: string;
  absolute: string;
  kind: 'file' | 'directory' | 'symlink';
}

/** Yields entries under `start` in sorted order; descends only when `recursive`; symlinks are listed, not followed. */
export async function* walkDirectory(root: string, start: string, recursive: boolean): AsyncGenerator<WalkEntry> {
  let entries;
  try {
    entries = await readdir(start, { withFileTypes: true });
  } catch {
    return; // Unreadable directories are skipped rather than failing the whole listing.
  }
  // Code-point order, as git prints it: the same listing on every machine and locale.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isDirectory() && skippedDirectories.has(entry.name)) continue;
    if (entry.name === '.git') continue; // In a linked worktree `.git` is a file, not a directory.
    const absolute = path.join(start, entry.name);
    const relative = path.relative(root, absolute).split(path.sep).join('/');
    const kind = entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'directory' : 'file';
    yield { relative, absolute, kind };
    if (recursive && kind === 'directory') yield* walkDirectory(root, absolute, true);
  }
}
