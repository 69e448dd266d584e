// Adds an attempt's linked worktree with a detached HEAD at the base commit. `git worktree add --detach` starts three
// git processes (itself, then `update-ref HEAD` and `reset --hard` as its children): about 9 ms of a calc claim here.
// Its registry entry is four small files, so they are written here as git writes them and one `git checkout` fills
// the folder and sets HEAD (about 4 ms). Whatever this does not cover is left to `git worktree add`.
import { existsSync, mkdirSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDirectorySync, readSmallFile } from '../small-files.js';
import { openGit, runGit, type Git } from './run-git.js';

/**
 * Adds the worktree at `worktreePath` (which must not exist) with HEAD detached at `baseRef`'s commit. Failures are
 * git's, from `git worktree add` (the quick way, when it fails, leaves nothing behind and hands over to it).
 */
export async function addDetachedWorktree(git: Git, repoPath: string, worktreePath: string, baseRef: string) {
  if (await addQuickly(repoPath, worktreePath, baseRef)) return;
  await runGit(git, ['worktree', 'add', '--detach', worktreePath, `${baseRef}^{commit}`]);
}

/**
 * The base as the new worktree must name it: HEAD is per worktree (the repository's is `main-worktree/HEAD`); a full
 * sha or a plain branch or tag name is shared. Undefined for anything else (an expression, a reflog entry, another
 * per-worktree ref such as ORIG_HEAD or refs/bisect/*), which `git worktree add` resolves.
 */
export function baseAsSeenFromWorktree(baseRef: string): string | undefined {
  if (baseRef === 'HEAD') return 'main-worktree/HEAD';
  if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(baseRef)) return baseRef;
  const plainName = /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/.test(baseRef) && !/\.\.|\/\/|\/\.|\.lock$|[./]$/.test(baseRef);
  const perWorktree =
    /^[A-Z_]+$/.test(baseRef) || /^(?:refs\/(?:bisect|worktree|rewritten)|main-worktree|worktrees)\//.test(baseRef);
  return plainName && !perWorktree ? baseRef : undefined;
}

// Settings that give a new worktree more than the four files (its own config, a sparse checkout, refs kept in a
// reftable), or that may (an included file): git adds those worktrees itself.
const settingsGitHandles = /worktreeconfig|refstorage|sparsecheckout|^\s*\[\s*include/im;

/** True when the worktree was added; false, with nothing left behind, when git is to add it. */
async function addQuickly(repoPath: string, worktreePath: string, baseRef: string): Promise<boolean> {
  const base = baseAsSeenFromWorktree(baseRef);
  // A repository whose `.git` is a folder (not bare, not itself a linked worktree or a submodule).
  const dotGit = path.join(repoPath, '.git');
  if (!base || !isDirectorySync(dotGit) || existsSync(worktreePath)) return false;
  const config = readSmallFile(path.join(dotGit, 'config'));
  if (config === undefined || settingsGitHandles.test(config)) return false;
  // Real paths, as git writes them; a parent folder that does not exist yet is left to git (it makes it).
  const parent = realFolder(path.dirname(worktreePath));
  if (!parent) return false;
  const folder = path.join(parent, path.basename(worktreePath));
  const entry = path.join(realpathSync(dotGit), 'worktrees', path.basename(worktreePath));
  if (existsSync(entry)) {
    // Left by an interrupted add of this same folder (so it may be locked, which prune respects): removed. An entry of
    // that name for another folder is left to git, which names the new one apart.
    if (readSmallFile(path.join(entry, 'gitdir'))?.trim() !== path.join(folder, '.git')) return false;
    rmSync(entry, { recursive: true, force: true });
  }
  try {
    // In this order, a `git worktree prune` run meanwhile finds an entry naming an existing `.git` file, or none.
    mkdirSync(folder);
    writeFileSync(path.join(folder, '.git'), `gitdir: ${entry}\n`);
    mkdirSync(path.dirname(entry), { recursive: true });
    mkdirSync(entry);
    writeFileSync(path.join(entry, 'gitdir'), `${path.join(folder, '.git')}\n`);
    // As git does: locked while it is made (prune leaves a locked entry alone).
    writeFileSync(path.join(entry, 'locked'), 'initializing\n');
    writeFileSync(path.join(entry, 'commondir'), '../..\n');
    // An unborn branch to start from: checking out from it writes no ref but HEAD.
    writeFileSync(path.join(entry, 'HEAD'), 'ref: refs/heads/taskloop-new-worktree\n');
    await checkoutDetached(openGit(folder), base);
    unlinkSync(path.join(entry, 'locked'));
    return true;
  } catch {
    rmSync(folder, { recursive: true, force: true });
    rmSync(entry, { recursive: true, force: true });
    return false;
  }
}

function realFolder(dir: string): string | undefined {
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}

async function checkoutDetached(git: Git, base: string): Promise<void> {
  await runGit(git, ['checkout', '--quiet', '--force', '--no-recurse-submodules', '--detach', `${base}^{commit}`]);
}
