// Unsandboxed runs can rewrite the repository's git config (filters, hooks, fsmonitor run code in taskloop's
// own git commands) and the worktree's `commondir` (which would lead taskloop's git, addressing the recorded admin
// folder, to a common folder the tests built): the files are saved before the run and put back after it if changed.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { worktreeGitDirs } from './git-dirs.js';

export interface GitConfigGuard {
  /** Restores every changed file; returns the repository-relative names it restored. */
  restore(): Promise<string[]>;
}

export async function guardGitConfig(worktree: string): Promise<GitConfigGuard> {
  const [adminDir, commonDir] = worktreeGitDirs(worktree);
  const files =
    commonDir && adminDir
      ? [
          path.join(commonDir, 'config'),
          path.join(commonDir, 'info', 'attributes'),
          path.join(adminDir, 'config.worktree'),
          path.join(adminDir, 'commondir'),
        ]
      : [];
  const saved = await Promise.all(files.map((file) => readFile(file).catch(() => undefined)));
  return {
    async restore() {
      const restored: string[] = [];
      for (const [index, file] of files.entries()) {
        const before = saved[index];
        const after = await readFile(file).catch(() => undefined);
        if (before === undefined ? after === undefined : after !== undefined && before.equals(after)) continue;
        if (before === undefined) await rm(file, { force: true });
        else await writeFile(file, before);
        restored.push(path.relative(path.dirname(commonDir ?? ''), file));
      }
      return restored;
    },
  };
}
