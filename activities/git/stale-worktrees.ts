// Earlier attempts' worktrees of the same task: an attempt abandoned with its host lost stays registered (and, on a
// shared disk, on disk) until the next claim of that task removes it. Read from git's files: no git process when
// there is nothing to remove. Small files, read synchronously (see activities/small-files.ts).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readSmallFile } from '../small-files.js';
import { removeAttemptGitDirRecord } from './attempt-git-dir.js';
import { isDirectory, runGit, type Git } from './run-git.js';

/** The folder holding `worktrees/` of a repository: `<repo>/.git`, or the repository itself when it is bare. */
async function commonGitDir(repoPath: string): Promise<string> {
  const dotGit = path.join(repoPath, '.git');
  return (await isDirectory(dotGit)) ? dotGit : repoPath;
}

/** Git's worktree registry: per entry, the `.git` file of the worktree it names ('' when unreadable) and its lock. */
async function registryEntries(repoPath: string): Promise<{ gitFile: string; locked: boolean }[]> {
  const registry = path.join(await commonGitDir(repoPath), 'worktrees');
  let names: string[];
  try {
    names = readdirSync(registry);
  } catch {
    names = [];
  }
  return names.map((name) => ({
    gitFile: (readSmallFile(path.join(registry, name, 'gitdir')) ?? '').trim(),
    locked: existsSync(path.join(registry, name, 'locked')),
  }));
}

/**
 * True when the registry holds an entry `git worktree prune` would remove: no `gitdir`, or one naming a worktree
 * whose `.git` file is gone (and the entry is not locked). Read from files, so a claim starts no prune when there is
 * nothing to prune.
 */
export async function hasPrunableWorktrees(repoPath: string): Promise<boolean> {
  const entries = await registryEntries(repoPath);
  return entries.some((entry) => !entry.locked && (!entry.gitFile || !existsSync(entry.gitFile)));
}

/** Registered worktree folders named `<prefix>-a<N>` with N below `attempt`. */
export async function staleAttemptWorktrees(repoPath: string, prefix: string, attempt: number): Promise<string[]> {
  const stale: string[] = [];
  for (const { gitFile } of await registryEntries(repoPath)) {
    if (!gitFile) continue;
    const folder = path.dirname(gitFile);
    const match = /^(.*)-a(\d+)$/.exec(path.basename(folder));
    if (match && match[1] === prefix && Number(match[2]) < attempt) stale.push(folder);
  }
  return stale;
}

/** Removes them (forced: an abandoned attempt's changes are never committed), so they neither linger nor stay registered. */
export async function removeStaleAttemptWorktrees(
  git: Git,
  repoPath: string,
  prefix: string,
  attempt: number,
): Promise<void> {
  for (const folder of await staleAttemptWorktrees(repoPath, prefix, attempt)) {
    await runGit(git, ['worktree', 'remove', '--force', folder]).catch(() => runGit(git, ['worktree', 'prune']));
    removeAttemptGitDirRecord(folder);
  }
}
