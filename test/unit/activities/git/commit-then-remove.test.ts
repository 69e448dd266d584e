import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { commitThenRemove } from '../../../../activities/git/commit-then-remove.js';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { makeRepoWithWorktree, makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const run = { workflowId: 'wf-1', attempt: 1, message: 'fix add', staged: false };

describe('commitThenRemove', () => {
  it('commits, removes the worktree, and a retry after the removal returns the same commit without a second', async () => {
    const { repoPath, workDir, worktreePath, branch } = await makeRepoWithWorktree(dirs);
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const stateDir = path.join(workDir, 'artifacts', 'a1');
    let commits = 0;
    const input = {
      commit: () => {
        commits += 1;
        return commitWorktree({ ...run, worktreePath, branch });
      },
      stateDir,
      removal: { repoPath, worktreePath },
    };

    const first = await commitThenRemove(input);
    const retried = await commitThenRemove(input);

    expect(first).toMatchObject({ created: true, branch: 'taskloop/t1', worktreeRemoved: true });
    expect(existsSync(worktreePath)).toBe(false);
    expect(retried).toEqual(first);
    expect(commits).toBe(1);
    const git = simpleGit(repoPath);
    expect((await git.raw(['rev-parse', 'taskloop/t1'])).trim()).toBe(first.sha);
    expect((await git.raw(['worktree', 'list', '--porcelain'])).includes(worktreePath)).toBe(false);
  });

  it('keeps a made commit when the removal fails, and says the worktree is still there', async () => {
    const { worktreePath, branch, workDir } = await makeRepoWithWorktree(dirs);
    const otherRepo = await makeTempDir();
    dirs.push(otherRepo);
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');

    // The worktree is not one of `otherRepo`: the removal refuses it (InvalidWorktree) after the commit was made.
    const result = await commitThenRemove({
      commit: () => commitWorktree({ ...run, worktreePath, branch }),
      stateDir: path.join(workDir, 'artifacts', 'a1'),
      removal: { repoPath: otherRepo, worktreePath },
    });

    expect(result).toMatchObject({ created: true, worktreeRemoved: false });
    expect(existsSync(worktreePath)).toBe(true);
  });

  it('only commits when no removal is asked', async () => {
    const { worktreePath, branch, workDir } = await makeRepoWithWorktree(dirs);
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');

    const result = await commitThenRemove({
      commit: () => commitWorktree({ ...run, worktreePath, branch }),
      stateDir: path.join(workDir, 'artifacts', 'a1'),
    });

    expect(result.created).toBe(true);
    expect(result).not.toHaveProperty('worktreeRemoved');
    expect(existsSync(worktreePath)).toBe(true);
  });
});
