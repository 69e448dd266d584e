// Creates (or finds again) the git worktree of one attempt: idempotent per (workflowId, attempt).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SimpleGit } from 'simple-git';
import { assertAttempt, toSafeName } from '../artifacts.js';
import { emptyRepo, invalidTaskId, unknownBaseRef } from './failures.js';
import { openRepo, tryGit } from './run-git.js';
import { findWorktree } from './worktree-list.js';

export interface CreateWorktreeInput {
  repoPath: string;
  baseRef: string;
  taskId: string;
  workflowId: string;
  attempt: number;
  workDir: string;
}

export interface CreatedWorktree {
  worktreePath: string;
  branch: string;
  baseSha: string;
  /** true when this attempt's worktree already existed (a retried activity) and was returned untouched. */
  reused: boolean;
}

// Kept in the worktree's private git folder, so a reused worktree reports the commit it was made from.
const baseShaFile = 'taskloop-base-sha';

/** The folder of one attempt's worktree: `<workDir>/worktrees/<safe workflowId>-a<attempt>`. */
export function worktreePathFor(workDir: string, workflowId: string, attempt: number): string {
  return path.resolve(workDir, 'worktrees', `${toSafeName(workflowId)}-a${attempt}`);
}

/**
 * Creates a worktree with a detached HEAD at `baseRef`'s commit, or returns this attempt's existing one. `branch` is
 * the name the commit will be kept under (`taskloop/<taskId>`): no branch exists until commit, so a failed or
 * cancelled attempt leaves none behind. Throws non-retryable `InvalidRepo`, `EmptyRepo`, `UnknownBaseRef` or
 * `InvalidTaskId`.
 */
export async function createWorktree(input: CreateWorktreeInput): Promise<CreatedWorktree> {
  assertAttempt(input.attempt);
  const git = await openRepo(input.repoPath);
  const branch = `taskloop/${input.taskId}`;
  if (input.taskId.length === 0 || (await tryGit(git, ['check-ref-format', '--branch', branch])) === undefined) {
    throw invalidTaskId(input.taskId);
  }
  const worktreePath = worktreePathFor(input.workDir, input.workflowId, input.attempt);
  // Forget worktrees whose folders are gone (e.g. a lost host's), so their branch and path can be reused.
  await git.raw(['worktree', 'prune']);

  const existing = await findWorktree(git, worktreePath);
  if (existing) {
    const recorded = await readRecordedBase(worktreePath);
    const baseSha = recorded ?? (await resolveBaseRef(git, input.baseRef, input.repoPath));
    return { worktreePath, branch, baseSha, reused: true };
  }

  const baseSha = await resolveBaseRef(git, input.baseRef, input.repoPath);
  // A folder git does not know is debris of an interrupted add: it is ours (keyed by workflow and attempt).
  await rm(worktreePath, { recursive: true, force: true });
  await mkdir(path.dirname(worktreePath), { recursive: true });
  await git.raw(['worktree', 'add', '--detach', worktreePath, baseSha]);
  await recordBase(worktreePath, baseSha);
  return { worktreePath, branch, baseSha, reused: false };
}

/** The full sha of `baseRef`'s commit; distinguishes an empty repository from an unknown ref. */
async function resolveBaseRef(git: SimpleGit, baseRef: string, repoPath: string): Promise<string> {
  // A ref starting with "-" would be read as an option.
  const sha = baseRef.startsWith('-')
    ? undefined
    : await tryGit(git, ['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`]);
  if (sha?.trim()) return sha.trim();
  const anyCommit = await tryGit(git, ['rev-list', '-n', '1', '--all']);
  if (!anyCommit?.trim()) throw emptyRepo(repoPath, baseRef);
  throw unknownBaseRef(baseRef, repoPath);
}

/** A linked worktree's private git folder, read from its `.git` file (`gitdir: <path>`) without starting git. */
export async function privateGitDir(worktreePath: string): Promise<string> {
  const pointer = (await readFile(path.join(worktreePath, '.git'), 'utf8')).trim();
  if (!pointer.startsWith('gitdir: ')) throw new Error(`${worktreePath}/.git is not a linked worktree's pointer file`);
  return path.resolve(worktreePath, pointer.slice('gitdir: '.length));
}

async function recordBase(worktreePath: string, baseSha: string): Promise<void> {
  await writeFile(path.join(await privateGitDir(worktreePath), baseShaFile), `${baseSha}\n`, 'utf8');
}

/** The base commit recorded when the worktree was made, if any. */
export async function readRecordedBase(worktreePath: string): Promise<string | undefined> {
  try {
    const text = await readFile(path.join(await privateGitDir(worktreePath), baseShaFile), 'utf8');
    return /^[0-9a-f]{40,64}$/.test(text.trim()) ? text.trim() : undefined;
  } catch {
    return undefined;
  }
}
