// Creates (or finds again) the git worktree of one attempt: idempotent per (workflowId, attempt).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SimpleGit } from 'simple-git';
import { assertAttempt, toSafeName } from '../artifacts.js';
import { branchInUse, emptyRepo, invalidTaskId, unknownBaseRef } from './failures.js';
import { openGit, openRepo, tryGit } from './run-git.js';
import { findWorktree, listWorktrees } from './worktree-list.js';

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
 * Creates a worktree on branch `taskloop/<taskId>` at `baseRef`'s commit, or returns this attempt's existing one.
 * Earlier attempts' worktrees keep their files but lose the branch (detached HEAD).
 * Throws non-retryable `InvalidRepo`, `EmptyRepo`, `UnknownBaseRef`, `InvalidTaskId` or `BranchInUse`.
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
    return { worktreePath, branch: existing.branch ?? branch, baseSha, reused: true };
  }

  const baseSha = await resolveBaseRef(git, input.baseRef, input.repoPath);
  // A folder git does not know is debris of an interrupted add: it is ours (keyed by workflow and attempt).
  await rm(worktreePath, { recursive: true, force: true });
  await mkdir(path.dirname(worktreePath), { recursive: true });
  await releaseBranch(git, branch, input.repoPath);
  // -f: the branch may still be checked out in a stale worktree of a lost host.
  await git.raw(['worktree', 'add', '-f', '-B', branch, worktreePath, baseSha]);
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

/**
 * Detaches HEAD in earlier attempts' worktrees that still have `branch` checked out (their files and commits stay),
 * because git refuses to reset a branch checked out elsewhere. The user's main checkout is never touched.
 */
async function releaseBranch(git: SimpleGit, branch: string, repoPath: string): Promise<void> {
  for (const entry of await listWorktrees(git)) {
    if (entry.branch !== branch) continue;
    if (entry.main) throw branchInUse(branch, repoPath);
    await openGit(entry.path).raw(['checkout', '--quiet', '--detach']);
  }
}

async function privateGitDir(worktreePath: string): Promise<string> {
  return (await openGit(worktreePath).raw(['rev-parse', '--absolute-git-dir'])).trim();
}

async function recordBase(worktreePath: string, baseSha: string): Promise<void> {
  await writeFile(path.join(await privateGitDir(worktreePath), baseShaFile), `${baseSha}\n`, 'utf8');
}

async function readRecordedBase(worktreePath: string): Promise<string | undefined> {
  try {
    const text = await readFile(path.join(await privateGitDir(worktreePath), baseShaFile), 'utf8');
    return /^[0-9a-f]{40,64}$/.test(text.trim()) ? text.trim() : undefined;
  } catch {
    return undefined;
  }
}
