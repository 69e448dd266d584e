import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { privateGitDir } from '../../../../activities/git/run-git.js';
import { removeWorktree } from '../../../../activities/git/remove-worktree.js';
import { makeRepoWithWorktree, makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const setup = () => makeRepoWithWorktree(dirs);

const run = { workflowId: 'wf-1', attempt: 1, message: 'fix #218: honour cache_key' };

/** Claims, changes and commits task t1 under another workflow id in its own work folder. */
async function makeRun(repoPath: string, workflowId: string) {
  const workDir = await makeTempDir();
  dirs.push(workDir);
  const claim = await createWorktree({ repoPath, workDir, baseRef: 'main', taskId: 't1', workflowId, attempt: 1 });
  await writeFile(path.join(claim.worktreePath, 'other.py'), `w = ${JSON.stringify(workflowId)}\n`);
  return commitWorktree({ ...run, workflowId, worktreePath: claim.worktreePath, branch: claim.branch });
}

describe('commitWorktree', () => {
  it('commits the change once with the run trailer and the taskloop identity', async () => {
    const { worktreePath, branch, baseSha } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');

    const result = await commitWorktree({ ...run, worktreePath, branch });

    expect(result.created).toBe(true);
    expect(result.branch).toBe('taskloop/t1');
    const git = simpleGit(worktreePath);
    expect((await git.raw(['rev-parse', 'taskloop/t1'])).trim()).toBe(result.sha);
    const message = await git.raw(['log', '-1', '--format=%B', result.sha]);
    expect(message).toContain('fix #218: honour cache_key');
    expect(message.split('\n')).toContain('Taskloop-Run: wf-1/1');
    const trailers = await git.raw(['log', '-1', '--format=%(trailers:key=Taskloop-Run,valueonly)', result.sha]);
    expect(trailers.trim()).toBe('wf-1/1');
    expect((await git.raw(['log', '-1', '--format=%an <%ae>|%cn <%ce>', result.sha])).trim()).toBe(
      'taskloop <taskloop@localhost>|taskloop <taskloop@localhost>',
    );
    expect((await git.raw(['ls-tree', '--name-only', result.sha])).split('\n')).toContain('new.py');
    expect((await git.raw(['rev-list', '--count', `${baseSha}..taskloop/t1`])).trim()).toBe('1');
  });

  it('finds its own commit on a second call and makes no other', async () => {
    const { worktreePath, branch, baseSha } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const first = await commitWorktree({ ...run, worktreePath, branch });
    await writeFile(path.join(worktreePath, 'late.py'), 'y = 2\n');

    const second = await commitWorktree({ ...run, worktreePath, branch });

    expect(second).toEqual({ ...first, created: false });
    const count = await simpleGit(worktreePath).raw(['rev-list', '--count', `${baseSha}..taskloop/t1`]);
    expect(count.trim()).toBe('1');
  });

  it("does not mistake another attempt's trailer for its own", async () => {
    const { worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    await commitWorktree({ ...run, attempt: 10, worktreePath, branch });
    await writeFile(path.join(worktreePath, 'more.py'), 'y = 2\n');

    const result = await commitWorktree({ ...run, attempt: 1, worktreePath, branch });

    expect(result.created).toBe(true);
  });

  it('keeps message lines that start with "#"', async () => {
    const { worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const result = await commitWorktree({ ...run, message: 'fix it\n\n#218 was the cause', worktreePath, branch });
    const message = await simpleGit(worktreePath).raw(['log', '-1', '--format=%B', result.sha]);
    expect(message).toContain('#218 was the cause');
  });

  it('refuses when there is nothing to commit and no commit of this run exists', async () => {
    const { worktreePath, branch } = await setup();
    await expect(commitWorktree({ ...run, worktreePath, branch })).rejects.toMatchObject({
      type: 'NothingToCommit',
      nonRetryable: true,
      message: expect.stringContaining(worktreePath),
    });
  });

  it('refuses a worktree that has another branch checked out', async () => {
    const { worktreePath } = await setup();
    await simpleGit(worktreePath).raw(['checkout', '-q', '-b', 'elsewhere']);
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    await expect(commitWorktree({ ...run, worktreePath, branch: 'taskloop/t1' })).rejects.toMatchObject({
      type: 'BranchMismatch',
      nonRetryable: true,
    });
  });

  it("gives a later run of the same task id a branch of its own and never moves the earlier run's branch", async () => {
    const { repoPath, workDir, worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const first = await commitWorktree({ ...run, worktreePath, branch });
    await removeWorktree({ repoPath, worktreePath });
    // A second tasks file, a scheduled run or a retry after close: same task id, same workflow id and attempt.
    const again = await createWorktree({
      repoPath,
      workDir,
      baseRef: 'main',
      taskId: 't1',
      workflowId: 'wf-1',
      attempt: 1,
    });
    await writeFile(path.join(again.worktreePath, 'new.py'), 'x = 2\n');
    const second = await commitWorktree({ ...run, worktreePath: again.worktreePath, branch: again.branch });
    const third = await makeRun(repoPath, 'wf-2');

    expect(first.branch).toBe('taskloop/t1');
    expect(second).toMatchObject({ branch: 'taskloop/t1-run2', created: true });
    expect(third.branch).toBe('taskloop/t1-run3');
    const git = simpleGit(repoPath);
    expect((await git.raw(['rev-parse', 'taskloop/t1'])).trim()).toBe(first.sha);
    expect((await git.raw(['rev-parse', 'taskloop/t1-run2'])).trim()).toBe(second.sha);
    expect(new Set([first.sha, second.sha, third.sha]).size).toBe(3);
    // A retried commit of the second run names the branch that holds it.
    expect(await commitWorktree({ ...run, worktreePath: again.worktreePath, branch: again.branch })).toEqual({
      ...second,
      created: false,
    });
  });

  it("finds a commit made by an earlier run with the same trailer only after this attempt's base", async () => {
    const { repoPath, workDir, worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const first = await commitWorktree({ ...run, worktreePath, branch });
    await removeWorktree({ repoPath, worktreePath });
    await simpleGit(repoPath).raw(['merge', '-q', '--ff-only', first.branch]);
    const again = await createWorktree({
      repoPath,
      workDir,
      baseRef: 'main',
      taskId: 't1',
      workflowId: 'wf-1',
      attempt: 1,
    });
    await writeFile(path.join(again.worktreePath, 'new.py'), 'x = 3\n');

    const second = await commitWorktree({ ...run, worktreePath: again.worktreePath, branch: again.branch });

    expect(second.created).toBe(true);
    expect(second.sha).not.toBe(first.sha);
  });

  it('commits without the worktree’s index: an index.lock left in the attempt’s git folder neither blocks nor is touched', async () => {
    const { worktreePath, branch } = await setup();
    await writeFile(path.join(worktreePath, 'new.py'), 'x = 1\n');
    const lock = path.join((await privateGitDir(worktreePath)) ?? '?', 'index.lock');
    await writeFile(lock, '');

    const result = await commitWorktree({ ...run, worktreePath, branch });

    expect(result.created).toBe(true);
    expect(existsSync(lock)).toBe(true);
    expect((await simpleGit(worktreePath).raw(['ls-tree', '--name-only', result.sha])).split('\n')).toContain('new.py');
  });
});
