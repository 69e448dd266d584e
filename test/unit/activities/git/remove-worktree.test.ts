import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { removeWorktree } from '../../../../activities/git/remove-worktree.js';
import { withRepoLock } from '../../../../activities/git/run-git.js';
import { canonical } from '../../../../activities/git/worktree-owner.js';
import { makeRepoWithWorktree, makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const setup = () => makeRepoWithWorktree(dirs);

async function registeredPaths(repoPath: string): Promise<string[]> {
  const list = await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain']);
  return list
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice(9));
}

describe('removeWorktree', () => {
  // A worktree of 120,000 files took minutes to delete under the repository's lock, holding every other claim and
  // commit in the repository (issue 51): its files now go after the lock is released.
  it("deletes a big worktree's files after releasing the repository lock", async () => {
    const { repoPath, worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    await commitWorktree({ worktreePath, branch, workflowId: 'wf-1', attempt: 1, message: 'm' });
    for (let folder = 0; folder < 30; folder += 1) {
      const dir = path.join(worktreePath, 'build', `d${folder}`);
      await mkdir(dir, { recursive: true });
      await Promise.all(Array.from({ length: 1000 }, (_, file) => writeFile(path.join(dir, `f${file}.o`), 'x')));
    }
    const parent = path.dirname(worktreePath);
    const leftovers = () =>
      readdirSync(parent).filter((name) => name.startsWith(`${path.basename(worktreePath)}.removing-`));
    const removal = removeWorktree({ repoPath, worktreePath, committed: true });
    // Once the folder has been moved aside, the lock is taken while its 30,000 files are still being deleted.
    const deadline = Date.now() + 30_000;
    while (leftovers().length === 0) {
      if (Date.now() > deadline) throw new Error('the worktree was never moved aside to be deleted outside the lock');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const stillDeleting = await withRepoLock(await canonical(repoPath), async () => leftovers().length > 0);
    expect(stillDeleting).toBe(true);
    expect(await removal).toEqual({ removed: true, wasClean: false });
    expect(leftovers()).toEqual([]);
    expect(existsSync(worktreePath)).toBe(false);
    expect(await registeredPaths(repoPath)).toHaveLength(1);
  }, 60_000);

  it('deletes what a removal killed while deleting left, when the removal is retried', async () => {
    const { repoPath, worktreePath } = await setup();
    const left = `${worktreePath}.removing-deadbeef`;
    await mkdir(path.join(left, 'build'), { recursive: true });
    await writeFile(path.join(left, 'build', 'f.o'), 'x');
    await removeWorktree({ repoPath, worktreePath, committed: true });
    expect(existsSync(left)).toBe(false);
    expect(existsSync(worktreePath)).toBe(false);
  });

  it('removes a committed worktree, reports it clean, and keeps the branch', async () => {
    const { repoPath, worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const commit = await commitWorktree({ worktreePath, branch, workflowId: 'wf-1', attempt: 1, message: 'm' });

    expect(await removeWorktree({ repoPath, worktreePath })).toEqual({ removed: true, wasClean: true });

    expect(existsSync(worktreePath)).toBe(false);
    expect(await registeredPaths(repoPath)).toHaveLength(1);
    expect((await simpleGit(repoPath).raw(['rev-parse', 'taskloop/t1'])).trim()).toBe(commit.sha);
  });

  it('removes a committed worktree with files the tests left at once when told it is committed', async () => {
    const { repoPath, worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const commit = await commitWorktree({ worktreePath, branch, workflowId: 'wf-1', attempt: 1, message: 'm' });
    await writeFile(path.join(worktreePath, 'test-output.txt'), 'written by a test\n');
    await mkdir(path.join(worktreePath, 'build', 'deep'), { recursive: true });
    await writeFile(path.join(worktreePath, 'build', 'deep', 'out.bin'), 'x');
    const privateDir = (await readFile(path.join(worktreePath, '.git'), 'utf8')).trim().slice('gitdir: '.length);

    expect(await removeWorktree({ repoPath, worktreePath, committed: true })).toEqual({
      removed: true,
      wasClean: false,
    });

    expect(existsSync(worktreePath)).toBe(false);
    // Deleted as git deletes it, its private git folder too: nothing is left to prune.
    expect(existsSync(path.resolve(worktreePath, privateDir))).toBe(false);
    expect(await simpleGit(repoPath).raw(['worktree', 'prune', '--dry-run', '--verbose'])).toBe('');
    expect(await registeredPaths(repoPath)).toHaveLength(1);
    expect((await simpleGit(repoPath).raw(['rev-parse', 'taskloop/t1'])).trim()).toBe(commit.sha);
  });

  it('reports an untracked file as not clean and still removes the worktree', async () => {
    const { repoPath, worktreePath } = await setup();
    await writeFile(path.join(worktreePath, 'stray.txt'), 'left behind\n');

    expect(await removeWorktree({ repoPath, worktreePath })).toEqual({ removed: true, wasClean: false });
    expect(existsSync(worktreePath)).toBe(false);
  });

  it('returns removed=false without error the second time', async () => {
    const { repoPath, worktreePath } = await setup();
    await removeWorktree({ repoPath, worktreePath });

    expect(await removeWorktree({ repoPath, worktreePath })).toEqual({ removed: false, wasClean: true });
  });

  it('leaves the registration of a worktree whose folder was deleted to the next claim, which prunes it', async () => {
    const { repoPath, worktreePath } = await setup();
    await rm(worktreePath, { recursive: true, force: true });

    expect(await removeWorktree({ repoPath, worktreePath })).toEqual({ removed: false, wasClean: true });
    const workDir = await makeTempDir();
    dirs.push(workDir);
    const next = await createWorktree({
      repoPath,
      workDir,
      baseRef: 'main',
      taskId: 't2',
      workflowId: 'wf-2',
      attempt: 1,
    });
    expect(await registeredPaths(repoPath)).toEqual([await realpath(repoPath), await realpath(next.worktreePath)]);
  });

  it('refuses to remove a folder that is not a worktree of the repository', async () => {
    const { repoPath, workDir } = await setup();
    const other = path.join(workDir, 'worktrees');
    await expect(removeWorktree({ repoPath, worktreePath: other })).rejects.toMatchObject({
      type: 'InvalidWorktree',
      nonRetryable: true,
    });
    await expect(removeWorktree({ repoPath, worktreePath: repoPath })).rejects.toMatchObject({
      type: 'InvalidWorktree',
    });
    expect(existsSync(other)).toBe(true);
  });
});
