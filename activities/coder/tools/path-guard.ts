// Every coder tool path goes through here: repo-relative, inside the worktree, never into .git.
// Checked synchronously, as the worker's other small file-system reads (see activities/small-files.ts).
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

export interface ResolvedPath {
  /** Absolute path inside the worktree (symlinks not resolved). */
  absolute: string;
  /** Normalised repo-relative path with `/` separators; `.` for the root. */
  relative: string;
}

export type ResolveResult = { success: true; data: ResolvedPath } | { success: false; error: string };

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function refuse(p: string, why: string): ResolveResult {
  return {
    success: false,
    error: `error: path '${p}' refused: ${why}. Use a path relative to the repository root, e.g. 'src/app.py'.`,
  };
}

/**
 * Resolves a model-given path inside the worktree. Refuses absolute paths, `..` escapes, anything
 * under `.git`, and symlinks at any level whose real path leaves the worktree (or dangle).
 */
export async function resolveInWorktree(root: string, p: string): Promise<ResolveResult> {
  if (p.includes('\0')) return refuse(p, 'it contains a NUL byte');
  if (path.isAbsolute(p) || path.win32.isAbsolute(p)) return refuse(p, 'absolute paths are not allowed');
  const relative = path.posix.normalize(p.replaceAll('\\', '/')).replace(/\/+$/, '') || '.';
  const segments = relative === '.' ? [] : relative.split('/');
  if (segments[0] === '..') return refuse(p, 'it leaves the worktree');
  if (segments.some((s) => s.toLowerCase() === '.git')) return refuse(p, 'git internals (.git) are off limits');

  const realRoot = realpathSync.native(root);
  const realGit = path.join(realRoot, '.git');
  // Walk every prefix so a symlinked directory anywhere on the way is caught, not only the last part.
  let current = root;
  for (const segment of segments) {
    current = path.join(current, segment);
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      break; // Does not exist yet (e.g. a file to create); its existing ancestors were checked.
    }
    if (!isLink) continue;
    let target: string;
    try {
      target = realpathSync.native(current);
    } catch {
      return refuse(p, `'${path.relative(root, current)}' is a symlink whose target does not exist`);
    }
    if (!isInside(realRoot, target))
      return refuse(p, `'${path.relative(root, current)}' is a symlink that points outside the worktree`);
    if (isInside(realGit, target)) return refuse(p, `'${path.relative(root, current)}' is a symlink into .git`);
  }
  return { success: true, data: { absolute: path.join(root, ...segments), relative } };
}
