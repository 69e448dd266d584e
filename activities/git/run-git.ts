// Opening repositories and worktrees with git, with the checks that turn bad input into clear, final failures.
import path from 'node:path';
import { GitError } from './git-error.js';
import { isDirectorySync, readSmallFile } from '../small-files.js';
import { checkedAttemptGitDir, recordedAttemptGitDir } from './attempt-git-dir.js';
import { gitProcess, type Git } from './git-process.js';

export type { Git } from './git-process.js';
import { gitLocked, invalidRepo, invalidWorktree, worktreeError } from './failures.js';

// Output that other code parses must not depend on the user's color or path-quoting settings; and nothing taskloop's
// git does may run a program a setting names: no hooks, fsmonitor, pager, editor, signing program or submodule
// recursion. (Filters and diff drivers are defined only in the repository's and the user's own config; and no git of
// taskloop's runs over a worktree after repository code ran there: tree-git.ts.)
const stableConfig = [
  'color.ui=false',
  'core.quotepath=false',
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=:',
  'sequence.editor=:',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'submodule.recurse=false',
  'protocol.ext.allow=never',
];

/** A git client for `dir` with stable output settings (plus any extra `-c` settings). */
export function openGit(dir: string, extraConfig: string[] = []): Git {
  return gitProcess(dir, [...stableConfig, ...extraConfig]);
}

/** Runs a git command whose failure is an answer (e.g. `rev-parse --verify`): undefined instead of a throw. */
export async function tryGit(git: Git, args: string[]): Promise<string | undefined> {
  try {
    return await git.raw(args);
  } catch (error) {
    if (error instanceof GitError) return undefined;
    throw error;
  }
}

// What git prints when another git process holds a lock (or a concurrent worktree add/remove is half done).
const lockMessage =
  /Unable to create '([^']+\.lock)'|cannot lock ref|could not lock|unable to lock|failed to read .*commondir/i;

/** The lock file a git error names, or '' when it is a lock error that names none; undefined when not a lock error. */
export function lockFileOf(error: unknown): string | undefined {
  if (!(error instanceof GitError)) return undefined;
  const match = lockMessage.exec(error.message);
  return match ? (match[1] ?? '') : undefined;
}

const lockRetries = 6;

/**
 * Runs `args`, retrying with a short backoff while git reports a lock held by another process; throws retryable
 * `GitLocked` when the lock stays, and retryable `WorktreeError` for any other git failure.
 */
export async function runGit(git: Git, args: string[]): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await git.raw(args);
    } catch (error) {
      const lock = lockFileOf(error);
      if (lock === undefined) throw error instanceof GitError ? worktreeError(args[0] ?? 'git', error.message) : error;
      if (attempt >= lockRetries) throw gitLocked(lock || 'a lock file', args.join(' '));
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt + Math.random() * 20));
    }
  }
}

// One queue per repository in this worker process: git's own worktree add/prune/remove race when run concurrently.
const repoQueues = new Map<string, Promise<void>>();

/** Runs `step` after every earlier step queued for the same repository has ended. */
export async function withRepoLock<T>(repoKey: string, step: () => Promise<T>): Promise<T> {
  const previous = repoQueues.get(repoKey) ?? Promise.resolve();
  let release = (): void => undefined;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  repoQueues.set(repoKey, tail);
  await previous;
  try {
    return await step();
  } finally {
    release();
    if (repoQueues.get(repoKey) === tail) repoQueues.delete(repoKey);
  }
}

/** True when `dir` exists and is a folder (a synchronous stat: see activities/small-files.ts). */
export async function isDirectory(dir: string): Promise<boolean> {
  return isDirectorySync(dir);
}

/** Opens the repository at `repoPath`; throws `InvalidRepo` (non-retryable) when it is missing or not a git repository. */
export async function openRepo(repoPath: string): Promise<Git> {
  if (!(await isDirectory(repoPath))) throw invalidRepo(repoPath, 'does not exist or is not a folder');
  return openGit(repoPath);
}

/** Throws `InvalidRepo` when `repoPath` is not a git repository (called after a command there failed, to say why). */
export async function assertRepo(git: Git, repoPath: string): Promise<void> {
  if ((await tryGit(git, ['rev-parse', '--git-dir'])) === undefined)
    throw invalidRepo(repoPath, 'is not a git repository');
}

// The worktree's small files are read synchronously (activities/small-files.ts). No git command here has an attempt's
// worktree as its work tree: after repository code ran there, taskloop's git names the git folder and no work tree
// (tree-git.ts).

/** A linked worktree's private git folder, read from its `.git` file (`gitdir: <path>`) without starting git. */
export async function privateGitDir(worktreePath: string): Promise<string | undefined> {
  return privateGitDirSync(worktreePath);
}

/** The recorded git folder of an attempt's worktree (see attempt-git-dir.ts), else the one its pointer names. */
export function privateGitDirSync(worktreePath: string): string | undefined {
  return recordedAttemptGitDir(worktreePath) ?? pointedGitDir(worktreePath);
}

/** The git folder a `.git` file names (`gitdir: <path>`); read only before repository code ran, or with no record. */
export function pointedGitDir(worktreePath: string): string | undefined {
  const pointer = readSmallFile(path.join(worktreePath, '.git'))?.trim();
  return pointer?.startsWith('gitdir: ') ? path.resolve(worktreePath, pointer.slice('gitdir: '.length)) : undefined;
}

/** The worktree's HEAD from its private git folder: a branch name when attached, else the detached sha. */
export async function readWorktreeHead(worktreePath: string): Promise<{ branch?: string; sha?: string }> {
  return readWorktreeHeadSync(worktreePath);
}

export function readWorktreeHeadSync(worktreePath: string): { branch?: string; sha?: string } {
  const gitDir = privateGitDirSync(worktreePath);
  const text = gitDir ? (readSmallFile(path.join(gitDir, 'HEAD')) ?? '').trim() : '';
  if (text.startsWith('ref: refs/heads/')) return { branch: text.slice('ref: refs/heads/'.length) };
  return /^[0-9a-f]{40,64}$/.test(text) ? { sha: text } : {};
}

/**
 * The git folder of the worktree at `worktreePath`: the attempt's recorded one (a `.git` that no longer names it
 * throws `WorktreeTampered`), else a plain checkout's `.git` folder (a coder's tools on the user's own repository),
 * else the one its pointer names; throws `InvalidWorktree` when there is none.
 */
export function worktreeGitDir(worktreePath: string): string {
  if (!isDirectorySync(worktreePath)) throw invalidWorktree(worktreePath, 'does not exist');
  const dotGit = path.join(worktreePath, '.git');
  const gitDir = checkedAttemptGitDir(worktreePath) ?? (isDirectorySync(dotGit) ? dotGit : pointedGitDir(worktreePath));
  if (!gitDir || !isDirectorySync(gitDir)) throw invalidWorktree(worktreePath, 'is not a git work tree');
  return gitDir;
}

/** The settings every git command of taskloop's runs with, as `-c` arguments (for a caller that runs git itself). */
export function safeGitConfigArgs(): string[] {
  return stableConfig.flatMap((setting) => ['-c', setting]);
}
