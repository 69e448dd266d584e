// The attempt's real git folder, recorded at the claim, before any repository code ran. Afterwards the worktree is
// hostile input: tests (unsandboxed, or a coder's tool run) could rewrite its `.git` pointer to name a git folder they
// built, whose config runs commands (filters, textconv, hooks) in taskloop's own git on the host. So taskloop's git
// never reads the pointer again: it addresses the recorded folder, and a pointer that no longer names it fails the
// attempt (WorktreeTampered) before any git runs.
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { readSmallFile, writeSmallFileAtomic } from '../small-files.js';

/** The record sits beside the worktree folder (in the worker's work folder, which no sandboxed run sees). */
export function attemptGitDirRecord(worktreePath: string): string {
  return `${path.resolve(worktreePath)}.gitdir`;
}

/** Records the worktree's git folder, read from its pointer right after the worktree was made. */
export function recordAttemptGitDir(worktreePath: string, gitDir: string): void {
  const record = attemptGitDirRecord(worktreePath);
  writeSmallFileAtomic(record, `${path.resolve(gitDir)}\n`, `${record}.tmp`);
}

/** The recorded git folder, or undefined for a worktree made before records existed (or none of ours). */
export function recordedAttemptGitDir(worktreePath: string): string | undefined {
  const text = readSmallFile(attemptGitDirRecord(worktreePath))?.trim();
  return text && path.isAbsolute(text) ? text : undefined;
}

/** The worktree's stat cache (stat-cache.ts), beside the record and out of every sandbox's sight like it. */
export function attemptStatCacheFile(worktreePath: string): string {
  return `${path.resolve(worktreePath)}.stat-cache`;
}

/** Removes the record and the stat cache, with the worktree. */
export function removeAttemptGitDirRecord(worktreePath: string): void {
  rmSync(attemptGitDirRecord(worktreePath), { force: true });
  rmSync(attemptStatCacheFile(worktreePath), { force: true });
}

/** What the worktree's `.git` is now, in words, when it no longer is the pointer to `gitDir`; undefined when it is. */
export function pointerChange(worktreePath: string, gitDir: string): string | undefined {
  const pointer = path.join(worktreePath, '.git');
  const stats = lstatSync(pointer, { throwIfNoEntry: false });
  if (!stats) return '.git was removed';
  if (stats.isSymbolicLink()) return '.git was replaced by a symbolic link';
  if (stats.isDirectory()) return '.git was replaced by a folder';
  if (!stats.isFile()) return '.git was replaced by a special file';
  if (stats.size > 4096) return `.git was replaced by a file of ${stats.size} bytes`;
  const text = (readSmallFile(pointer) ?? '').trim();
  const named = text.startsWith('gitdir: ') ? path.resolve(worktreePath, text.slice('gitdir: '.length)) : undefined;
  if (named === gitDir) return undefined;
  return named ? `.git now names another git folder (${named})` : '.git no longer names a git folder';
}

/** The typed failure of a worktree whose `.git` pointer changed: the attempt fails, nothing is committed. */
export function worktreeTampered(worktreePath: string, change: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'WorktreeTampered',
    message:
      `the worktree ${worktreePath} was tampered with: ${change} (it named ${recordedAttemptGitDir(worktreePath) ?? 'the attempt’s git folder'}); ` +
      'code run in the attempt (its tests) rewrote it, so nothing was committed: a change must not touch .git',
    nonRetryable: true,
  });
}

/**
 * The attempt's git folder for taskloop's own git: the recorded one after checking that the worktree's pointer still
 * names it (throws WorktreeTampered otherwise). Undefined when nothing was recorded: the caller reads the pointer (a
 * worktree made before records existed).
 */
export function checkedAttemptGitDir(worktreePath: string): string | undefined {
  const gitDir = recordedAttemptGitDir(worktreePath);
  if (gitDir === undefined) return undefined;
  const change = pointerChange(worktreePath, gitDir);
  if (change) throw worktreeTampered(worktreePath, change);
  return gitDir;
}
