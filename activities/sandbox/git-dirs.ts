// The git folders a worktree points at (its own admin folder and the repository's common .git), shown
// read-only inside the sandbox so git-aware tests work while hooks and config stay out of reach.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function worktreeGitDirs(worktree: string): string[] {
  try {
    const pointer = readFileSync(path.join(worktree, '.git'), 'utf8')
      .match(/^gitdir:\s*(.+)$/m)?.[1]
      ?.trim();
    if (!pointer) return [];
    const adminDir = path.resolve(worktree, pointer);
    const common = readFileSync(path.join(adminDir, 'commondir'), 'utf8').trim();
    return [adminDir, path.resolve(adminDir, common)];
  } catch {
    // A plain checkout (.git is a folder inside the worktree) or no git at all: nothing else to show.
    return [];
  }
}
