// Creates (or finds again) the git worktree of one attempt: idempotent per (workflowId, attempt).
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { assertAttempt, toSafeName } from '../artifacts.js';
import { readSmallFile } from '../small-files.js';
import { recordAttemptGitDir, recordedAttemptGitDir, removeAttemptGitDirRecord } from './attempt-git-dir.js';
import { hasPrunableWorktrees, releaseOwnEntry, removeStaleAttemptWorktrees } from './stale-worktrees.js';
import { emptyRepo, invalidTaskId, unknownBaseRef, worktreeError } from './failures.js';
import {
  assertRepo,
  openRepo,
  pointedGitDir,
  privateGitDir,
  readWorktreeHead,
  runGit,
  tryGit,
  withRepoLock,
  type Git,
} from './run-git.js';
import { canonical, isWorktreeOf } from './worktree-owner.js';
import { candidateSuffix } from '../../domain/samples.js';

export interface CreateWorktreeInput {
  repoPath: string;
  baseRef: string;
  taskId: string;
  workflowId: string;
  attempt: number;
  /** The attempt's candidate (domain/samples.ts): each after the first gets a worktree of its own. */
  candidate?: number;
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
export function worktreePathFor(workDir: string, workflowId: string, attempt: number, candidate?: number): string {
  return path.resolve(workDir, 'worktrees', `${toSafeName(workflowId)}-a${attempt}${candidateSuffix(candidate)}`);
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
  if (!(await isValidTaskBranch(git, input.taskId, branch))) throw invalidTaskId(input.taskId);
  const worktreePath = worktreePathFor(input.workDir, input.workflowId, input.attempt, input.candidate);
  // Worktree add, prune and remove race inside git when run concurrently on one repository: one at a time per worker.
  return withRepoLock(await canonical(input.repoPath), async () => {
    // Forget worktrees whose folders are gone (e.g. a lost host's), so a dead host's worktree does not stay registered.
    if (await hasPrunableWorktrees(input.repoPath))
      await runGit(git, ['worktree', 'prune']).catch(async (error: unknown) => {
        await assertRepo(git, input.repoPath);
        throw error;
      });
    // An earlier attempt of this task whose host was lost left its worktree, or this attempt's first claim did on a
    // host since lost (another work folder): that claim is over, remove it.
    const prefix = toSafeName(input.workflowId);
    await removeStaleAttemptWorktrees(git, input.repoPath, prefix, input.attempt, worktreePath);
    const reused = await readRecordedBase(worktreePath);
    if (reused && (await isWorktreeOf(worktreePath, input.repoPath))) {
      // A claim retried before its first run of repository code: the pointer is still the one git wrote.
      if (!recordedAttemptGitDir(worktreePath)) recordAttemptGitDir(worktreePath, pointedGitDir(worktreePath) ?? '');
      return { worktreePath, branch, baseSha: reused, reused: true };
    }

    // A ref starting with "-" would be read as an option.
    if (input.baseRef.startsWith('-')) throw unknownBaseRef(input.baseRef, input.repoPath);
    // A folder git does not know is debris of an interrupted add: it is ours (keyed by workflow and attempt).
    // (Checked and made synchronously, see activities/small-files.ts; debris, rare, is removed asynchronously.)
    if (lstatSync(worktreePath, { throwIfNoEntry: false })) await rm(worktreePath, { recursive: true, force: true });
    await releaseOwnEntry(git, input.repoPath, worktreePath);
    removeAttemptGitDirRecord(worktreePath);
    mkdirSync(path.dirname(worktreePath), { recursive: true });
    // The add resolves the ref itself (one git process less); when it fails, the ref is looked at to say why.
    await runGit(git, ['worktree', 'add', '--detach', worktreePath, `${input.baseRef}^{commit}`]).catch(
      async (error: unknown) => {
        await explainBaseRef(git, input.baseRef, input.repoPath);
        throw error;
      },
    );
    const { sha: baseSha } = await readWorktreeHead(worktreePath);
    if (!baseSha) throw worktreeError('worktree add', `${worktreePath} has no detached HEAD after it was added`);
    await recordBase(worktreePath, baseSha);
    return { worktreePath, branch, baseSha, reused: false };
  });
}

// Ids like these always make a valid branch name; anything else is asked of git.
const plainId = /^[A-Za-z0-9_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

async function isValidTaskBranch(git: Git, taskId: string, branch: string): Promise<boolean> {
  if (taskId.length === 0) return false;
  if (plainId.test(taskId) && !taskId.endsWith('.lock')) return true;
  return (await tryGit(git, ['check-ref-format', '--branch', branch])) !== undefined;
}

/**
 * After a failed add: throws why, when it is the base ref (`UnknownBaseRef`, or `EmptyRepo` for a repository without
 * commits) or the repository (`InvalidRepo`); returns when the ref names a commit (the add failed for another reason).
 */
async function explainBaseRef(git: Git, baseRef: string, repoPath: string): Promise<void> {
  if (await tryGit(git, ['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`])) return;
  await assertRepo(git, repoPath);
  const anyCommit = await tryGit(git, ['rev-list', '-n', '1', '--all']);
  if (!anyCommit?.trim()) throw emptyRepo(repoPath, baseRef);
  throw unknownBaseRef(baseRef, repoPath);
}

/** Records the base commit and the attempt's git folder (read from the pointer git just wrote: no code ran yet). */
async function recordBase(worktreePath: string, baseSha: string): Promise<void> {
  const gitDir = pointedGitDir(worktreePath);
  if (!gitDir) throw worktreeError('worktree add', `${worktreePath} has no .git file after it was added`);
  writeFileSync(path.join(gitDir, baseShaFile), `${baseSha}\n`, 'utf8');
  recordAttemptGitDir(worktreePath, gitDir);
}

/** The base commit recorded when the worktree was made, if any. */
export async function readRecordedBase(worktreePath: string): Promise<string | undefined> {
  const gitDir = await privateGitDir(worktreePath);
  const text = gitDir ? readSmallFile(path.join(gitDir, baseShaFile))?.trim() : undefined;
  return text && /^[0-9a-f]{40,64}$/.test(text) ? text : undefined;
}
