// The git folders a worktree points at (its own admin folder and the repository's common .git), shown
// read-only inside the sandbox so git-aware tests work while hooks and config stay out of reach.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { recordedAttemptGitDir } from '../git/attempt-git-dir.js';

// The attempt's recorded git folder comes first: after an earlier run the worktree's `.git` pointer is hostile input
// (see activities/git/attempt-git-dir.ts), and one naming a host folder would have it shown to the next run.
export function worktreeGitDirs(worktree: string): string[] {
  try {
    const recorded = recordedAttemptGitDir(worktree);
    const pointer =
      recorded ??
      readFileSync(path.join(worktree, '.git'), 'utf8')
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
