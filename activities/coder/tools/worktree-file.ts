// The coder tools' reads and writes of one worktree file, after the path guard (resolveInWorktree). Tests the coder
// ran may have left links, FIFOs and huge files: a read opens only a regular file whose real path is inside the
// worktree, bounded and never blocking; a write never goes through a link, into a FIFO or into .git.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { isDirectorySync, realPathOf } from '../../small-files.js';
import { confineToRoot, readUntrustedFile, writeUntrustedFile } from '../../untrusted-files.js';
import type { ResolvedPath } from './path-guard.js';

/** The largest file a tool reads whole (read_file shows at most 1,000 lines of it; replace_in_file rewrites it). */
export const MAX_TOOL_FILE_BYTES = 16 * 1024 * 1024;

export type WorktreeRead =
  { ok: true; text: string } | { ok: false; problem: 'missing' | 'directory' | 'refused'; why: string };

const notRegular = 'is not a regular file (a FIFO, a socket or a device); it is not read';

function insideGit(realRoot: string | undefined, real: string): boolean {
  if (realRoot === undefined) return true;
  return path
    .relative(realRoot, real)
    .split(path.sep)
    .some((segment) => segment.toLowerCase() === '.git');
}

/**
 * Where an existing file is really: its real path when that is inside the worktree and outside .git; undefined when
 * it is missing; 'refused' when a link leads out (the guard refuses those, this holds should one appear since).
 */
function realTarget(root: string, file: ResolvedPath): string | 'refused' | undefined {
  const real = confineToRoot(root, file.relative);
  if (real === undefined) return lstatSync(file.absolute, { throwIfNoEntry: false }) ? 'refused' : undefined;
  return insideGit(realPathOf(root), real) ? 'refused' : real;
}

/** The text of a file the guard let through, or why it is not read. */
export async function readWorktreeFile(root: string, file: ResolvedPath): Promise<WorktreeRead> {
  const real = realTarget(root, file);
  if (real === undefined) return { ok: false, problem: 'missing', why: 'does not exist' };
  if (real === 'refused') return { ok: false, problem: 'refused', why: 'leads outside the worktree or into .git' };
  if (isDirectorySync(real)) return { ok: false, problem: 'directory', why: 'is a directory' };
  const read = await readUntrustedFile(real, MAX_TOOL_FILE_BYTES);
  if (read.ok) return { ok: true, text: read.text };
  switch (read.problem) {
    case 'missing':
      return { ok: false, problem: 'missing', why: 'does not exist' };
    case 'too_large':
      return { ok: false, problem: 'refused', why: `is larger than ${MAX_TOOL_FILE_BYTES} bytes; it is not read` };
    case 'not_regular':
      return { ok: false, problem: 'refused', why: notRegular };
    default:
      return { ok: false, problem: 'refused', why: 'is a symbolic link; it is not read' };
  }
}

/**
 * Writes a file the guard let through (its folders exist): to the real path of an existing file (a link that stays
 * inside the worktree is written through, as before), else to the new name; undefined once written, else why not.
 */
export async function writeWorktreeFile(
  root: string,
  file: ResolvedPath,
  content: string,
): Promise<string | undefined> {
  const real = realTarget(root, file);
  if (real === 'refused') return 'it leads outside the worktree or into .git';
  const written = await writeUntrustedFile(real ?? file.absolute, content);
  if (written.ok) return undefined;
  if (written.problem === 'link') return 'it is a symbolic link';
  if (written.problem === 'not_regular') return 'it is not a regular file (a FIFO, a socket or a device)';
  if (written.code === 'EISDIR') return 'it is a directory';
  if (written.code === 'ENOTDIR' || written.code === 'EEXIST') return 'a parent of it is a file';
  return String(written.code);
}
