// The attack of issue 39, class 1 and 2, at the git layer: code run in the attempt rewrites the worktree's `.git` to a
// git folder it built (its config defining a filter driver) and writes a `.gitattributes` using it. taskloop's git
// must neither run that filter nor commit into that folder: it fails with WorktreeTampered, and removal still works.
import { existsSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { attemptGitDirRecord } from '../../../../activities/git/attempt-git-dir.js';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { diffWorktree } from '../../../../activities/git/diff-worktree.js';
import { removeWorktree } from '../../../../activities/git/remove-worktree.js';
import { makeRepoWithWorktree, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

/** Builds, inside the worktree, a git folder whose filter writes `marker`, and points the worktree's `.git` at it. */
async function plantFakeGitDir(worktreePath: string, marker: string): Promise<void> {
  const fake = path.join(worktreePath, 'evil-git');
  await simpleGit().raw(['init', '--quiet', '--bare', fake]);
  await writeFile(
    path.join(fake, 'config'),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n[filter "pwn"]\n\tclean = sh -c 'env > ${marker}; cat'\n`,
  );
  await writeFile(path.join(worktreePath, '.gitattributes'), '*.py filter=pwn\n');
  await writeFile(path.join(worktreePath, '.git'), `gitdir: ${fake}\n`);
}

describe('the attempt’s recorded git folder', () => {
  it('is recorded at the claim, outside the worktree', async () => {
    const { worktreePath } = await makeRepoWithWorktree(dirs);
    expect(existsSync(attemptGitDirRecord(worktreePath))).toBe(true);
    expect(attemptGitDirRecord(worktreePath).startsWith(`${worktreePath}/`)).toBe(false);
  });

  it('refuses a worktree whose .git was rewritten: no filter runs, nothing is committed, removal still works', async () => {
    const { repoPath, worktreePath, branch, baseSha } = await makeRepoWithWorktree(dirs);
    const marker = path.join(path.dirname(repoPath), `filter-ran-${process.pid}.txt`);
    dirs.push(marker);
    await writeFile(path.join(worktreePath, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    await plantFakeGitDir(worktreePath, marker);

    await expect(diffWorktree({ worktreePath, baseSha })).rejects.toMatchObject({ type: 'WorktreeTampered' });
    const commit = commitWorktree({ worktreePath, branch, workflowId: 'wf-1', attempt: 1, message: 'm' });
    await expect(commit).rejects.toMatchObject({
      type: 'WorktreeTampered',
      message: expect.stringContaining('.git now names another git folder'),
    });
    expect(existsSync(marker)).toBe(false);
    expect((await simpleGit(repoPath).raw(['branch', '--list', 'taskloop/*'])).trim()).toBe('');

    await expect(removeWorktree({ repoPath, worktreePath })).resolves.toMatchObject({ removed: true });
    expect(existsSync(worktreePath)).toBe(false);
    expect(existsSync(attemptGitDirRecord(worktreePath))).toBe(false);
  });

  it('names a .git replaced by a symbolic link', async () => {
    const { worktreePath, branch } = await makeRepoWithWorktree(dirs);
    const elsewhere = path.join(worktreePath, 'elsewhere');
    await mkdir(elsewhere);
    await rm(path.join(worktreePath, '.git'));
    await symlink(elsewhere, path.join(worktreePath, '.git'));
    const commit = commitWorktree({ worktreePath, branch, workflowId: 'wf-1', attempt: 1, message: 'm' });
    await expect(commit).rejects.toMatchObject({ message: expect.stringContaining('symbolic link') });
  });
});
