// Earlier attempts' worktrees of the same task: an attempt abandoned with its host lost stays registered (and, on a
// shared disk, on disk) until the next claim of that task removes it. Read from git's files: no git process when
// there is nothing to remove. Small files, read synchronously (see activities/small-files.ts).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readSmallFile } from '../small-files.js';
import { removeAttemptGitDirRecord } from './attempt-git-dir.js';
import { isDirectory, runGit, type Git } from './run-git.js';
import { canonical } from './worktree-owner.js';

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

/**
 * Releases git's entry for `worktreePath` when it has one: a `git worktree add` of this attempt killed mid-way leaves
 * it locked "initializing" (git removes that lock only when the add finishes), and every later add of the folder then
 * fails ("missing but locked worktree"). The folder is this attempt's alone (keyed by workflow and attempt) and the
 * caller removed what was left of it, so the entry is unlocked and pruned; the add makes it again.
 */
export async function releaseOwnEntry(git: Git, repoPath: string, worktreePath: string): Promise<void> {
  // Git writes the folder's real path: the work folder may be reached through a link (/tmp on macOS).
  const real = path.join(await canonical(path.dirname(worktreePath)), path.basename(worktreePath));
  const gitFiles = new Set([path.join(worktreePath, '.git'), path.join(real, '.git')]);
  const own = (await registryEntries(repoPath)).find((entry) => gitFiles.has(entry.gitFile));
  if (!own) return;
  if (own.locked) await runGit(git, ['worktree', 'unlock', worktreePath]);
  await runGit(git, ['worktree', 'prune']);
}

/**
 * Registered worktree folders this claim replaces: `<prefix>-a<N>` (or a candidate's, `<prefix>-a<N>c<K>`) with N
 * below `attempt`, and a folder with this claim's own name in another work folder — the same attempt claimed again
 * because the host that first claimed it was lost (candidates of one attempt have names of their own, so a live
 * sibling candidate is never taken for one).
 */
export async function staleAttemptWorktrees(
  repoPath: string,
  prefix: string,
  attempt: number,
  ownPath?: string,
): Promise<string[]> {
  const own = ownPath ? path.join(await canonical(path.dirname(ownPath)), path.basename(ownPath)) : undefined;
  const stale: string[] = [];
  for (const { gitFile } of await registryEntries(repoPath)) {
    if (!gitFile) continue;
    const folder = path.dirname(gitFile);
    const match = /^(.*)-a(\d+)(?:c\d+)?$/.exec(path.basename(folder));
    if (!match || match[1] !== prefix) continue;
    const earlier = Number(match[2]) < attempt;
    const reclaimed = own !== undefined && path.basename(folder) === path.basename(own) && folder !== own;
    if (earlier || reclaimed) stale.push(folder);
  }
  return stale;
}

/** Removes them (forced: an abandoned attempt's changes are never committed), so they neither linger nor stay registered. */
export async function removeStaleAttemptWorktrees(
  git: Git,
  repoPath: string,
  prefix: string,
  attempt: number,
  ownPath?: string,
): Promise<void> {
  for (const folder of await staleAttemptWorktrees(repoPath, prefix, attempt, ownPath)) {
    await runGit(git, ['worktree', 'remove', '--force', folder]).catch(() => runGit(git, ['worktree', 'prune']));
    removeAttemptGitDirRecord(folder);
  }
}
