// Which repository a linked worktree belongs to, read from the files git keeps (no git process; small files read
// synchronously, see activities/small-files.ts).
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { readSmallFile } from '../small-files.js';
import { isDirectory, privateGitDir } from './run-git.js';

/** Resolves symlinks (e.g. /tmp on macOS) so two spellings of one folder compare equal. */
export async function canonical(dir: string): Promise<string> {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** The common git folder of the repository at `repoPath` (`.git`, a linked checkout's common folder, or a bare one). */
async function commonGitDir(repoPath: string): Promise<string> {
  const dotGit = path.join(repoPath, '.git');
  const info = statSync(dotGit, { throwIfNoEntry: false });
  if (info?.isDirectory()) return canonical(dotGit);
  const linked = info ? await privateGitDir(repoPath) : undefined;
  return linked ? commonOf(linked) : canonical(repoPath);
}

/** A linked worktree's private folder names its repository's common folder in `commondir` (relative, usually `../..`). */
async function commonOf(privateDir: string): Promise<string> {
  const relative = (readSmallFile(path.join(privateDir, 'commondir')) ?? '').trim();
  return canonical(path.resolve(privateDir, relative || '../..'));
}

/** True when `worktreePath` is a registered linked worktree of the repository at `repoPath`. */
export async function isWorktreeOf(worktreePath: string, repoPath: string): Promise<boolean> {
  const privateDir = await privateGitDir(worktreePath);
  if (!privateDir || !(await isDirectory(privateDir))) return false;
  return (await commonOf(privateDir)) === (await commonGitDir(repoPath));
}
