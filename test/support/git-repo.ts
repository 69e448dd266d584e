// Test helper: real git repositories in temp folders.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach } from 'vitest';
import { createWorktree } from '../../activities/git/create-worktree.js';

/** A fresh temp folder; remember to remove it (see `removeDirs`). */
export async function makeTempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
}

/** Writes files (repo-relative paths) under `dir`, creating folders. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content, 'utf8');
  }
}

/** A repository on branch `main` with one commit holding `files` (none: a repository without commits). */
export async function makeRepo(files: Record<string, string> = { 'README.md': '# demo\n' }): Promise<string> {
  const dir = await makeTempDir();
  const git = simpleGit(dir);
  await git.raw(['init', '-q', '-b', 'main']);
  await git.raw(['config', 'user.name', 'test']);
  await git.raw(['config', 'user.email', 'test@example.com']);
  await git.raw(['config', 'commit.gpgsign', 'false']);
  if (Object.keys(files).length > 0) {
    await writeFiles(dir, files);
    await git.raw(['add', '-A']);
    await git.raw(['commit', '-q', '-m', 'initial']);
  }
  return dir;
}

export async function removeDirs(dirs: string[]): Promise<void> {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** A maker of temp folders that a test file removes after each test: call at the top of the file. */
export function useTempDirs(): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(() => removeDirs(dirs));
  return async () => {
    const dir = await makeTempDir();
    dirs.push(dir);
    return dir;
  };
}

/** A repository with the worktree of task t1, attempt 1 (as the claim activity makes it); folders go into `dirs`. */
export async function makeRepoWithWorktree(dirs: string[], files?: Record<string, string>) {
  const repoPath = await makeRepo(files);
  const workDir = await makeTempDir();
  dirs.push(repoPath, workDir);
  const created = await createWorktree({
    repoPath,
    workDir,
    baseRef: 'main',
    taskId: 't1',
    workflowId: 'wf-1',
    attempt: 1,
  });
  return { repoPath, workDir, ...created };
}
