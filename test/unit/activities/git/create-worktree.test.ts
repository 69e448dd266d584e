import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { makeRepo, makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

async function setup(files?: Record<string, string>) {
  const repoPath = await makeRepo(files);
  const workDir = await makeTempDir();
  dirs.push(repoPath, workDir);
  return { repoPath, workDir };
}

const base = { baseRef: 'main', taskId: 'fix-218', workflowId: 'task-demo-fix-218', attempt: 1 };

describe('createWorktree', () => {
  it('creates a worktree with a detached HEAD at the base commit and no branch yet', async () => {
    const { repoPath, workDir } = await setup();
    const headSha = (await simpleGit(repoPath).revparse(['HEAD'])).trim();

    const created = await createWorktree({ ...base, repoPath, workDir });

    expect(created).toEqual({
      worktreePath: path.join(workDir, 'worktrees', 'task-demo-fix-218-a1'),
      branch: 'taskloop/fix-218',
      baseSha: headSha,
      reused: false,
    });
    expect(await readFile(path.join(created.worktreePath, 'README.md'), 'utf8')).toBe('# demo\n');
    const head = await simpleGit(created.worktreePath).raw(['rev-parse', '--abbrev-ref', 'HEAD']);
    expect(head.trim()).toBe('HEAD');
    expect((await simpleGit(repoPath).raw(['branch', '--list', 'taskloop/*'])).trim()).toBe('');
  });

  it('returns the same worktree untouched when called again for the same workflow and attempt', async () => {
    const { repoPath, workDir } = await setup();
    const first = await createWorktree({ ...base, repoPath, workDir });
    await writeFile(path.join(first.worktreePath, 'work.py'), 'x = 1\n');

    const second = await createWorktree({ ...base, repoPath, workDir });

    expect(second).toEqual({ ...first, reused: true });
    expect(await readFile(path.join(first.worktreePath, 'work.py'), 'utf8')).toBe('x = 1\n');
  });

  it('reports the original base commit on reuse even after the base branch moved on', async () => {
    const { repoPath, workDir } = await setup();
    const first = await createWorktree({ ...base, repoPath, workDir });
    await writeFile(path.join(repoPath, 'later.txt'), 'later\n');
    await simpleGit(repoPath).add('later.txt').commit('later');

    const second = await createWorktree({ ...base, repoPath, workDir });

    expect(second.baseSha).toBe(first.baseSha);
  });

  it("gives the next attempt its own worktree and removes an earlier attempt's leftover (its host was lost)", async () => {
    const { repoPath, workDir } = await setup();
    const first = await createWorktree({ ...base, repoPath, workDir });
    await writeFile(path.join(first.worktreePath, 'left.py'), 'x = 1\n');

    const second = await createWorktree({ ...base, attempt: 2, repoPath, workDir });

    expect(second.worktreePath).not.toBe(first.worktreePath);
    expect(second.reused).toBe(false);
    expect(second.branch).toBe('taskloop/fix-218');
    // Attempts run one after another: a worktree of an earlier one still there at the next claim belongs to a host
    // that was lost mid-attempt, and nothing of it will ever be committed.
    expect(existsSync(first.worktreePath)).toBe(false);
    expect(await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain'])).not.toContain(first.worktreePath);
  });

  it("removes this attempt's first claim on a lost host (another work folder) and keeps a sibling candidate's", async () => {
    const { repoPath, workDir: lostHost } = await setup();
    const liveHost = await makeTempDir();
    dirs.push(liveHost);
    const lost = await createWorktree({ ...base, repoPath, workDir: lostHost });
    const sibling = await createWorktree({ ...base, candidate: 2, repoPath, workDir: lostHost });
    await writeFile(path.join(lost.worktreePath, 'left.py'), 'x = 1\n');

    // The same attempt claimed again on another host once the first was lost (the soak found it left for good).
    const again = await createWorktree({ ...base, repoPath, workDir: liveHost });

    expect(again.worktreePath).toBe(path.join(liveHost, 'worktrees', 'task-demo-fix-218-a1'));
    expect(existsSync(lost.worktreePath)).toBe(false);
    expect(existsSync(`${lost.worktreePath}.gitdir`)).toBe(false);
    const list = (await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain'])).split('\n');
    expect(list).not.toContain(`worktree ${lost.worktreePath}`);
    expect(existsSync(sibling.worktreePath)).toBe(true);
    expect(list).toContain(`worktree ${sibling.worktreePath}`);
    expect(list).toContain(`worktree ${again.worktreePath}`);
  });

  it('leaves a taskloop branch the user has checked out in the main worktree alone', async () => {
    const { repoPath, workDir } = await setup();
    await simpleGit(repoPath).raw(['checkout', '-q', '-b', 'taskloop/fix-218']);
    const created = await createWorktree({ ...base, repoPath, workDir });
    expect(created.reused).toBe(false);
    expect((await simpleGit(repoPath).raw(['symbolic-ref', '--short', 'HEAD'])).trim()).toBe('taskloop/fix-218');
  });

  it('recreates a worktree whose folder was deleted while its registration stayed behind', async () => {
    const { repoPath, workDir } = await setup();
    const first = await createWorktree({ ...base, repoPath, workDir });
    await rm(first.worktreePath, { recursive: true, force: true });

    const again = await createWorktree({ ...base, repoPath, workDir });

    expect(again.reused).toBe(false);
    expect(existsSync(path.join(again.worktreePath, 'README.md'))).toBe(true);
    const list = await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain']);
    expect(list.split('\n').filter((line) => line.startsWith('worktree ')).length).toBe(2);
  });

  it('makes a safe folder name from a workflow id with slashes and dots', async () => {
    const { repoPath, workDir } = await setup();
    const created = await createWorktree({ ...base, workflowId: '../evil/id', repoPath, workDir });
    expect(path.dirname(created.worktreePath)).toBe(path.join(workDir, 'worktrees'));
    expect(path.basename(created.worktreePath)).toMatch(/^[A-Za-z0-9._-]+-a1$/);
  });

  it('refuses a path that does not exist, naming it', async () => {
    const workDir = await makeTempDir();
    dirs.push(workDir);
    const repoPath = path.join(workDir, 'nope');
    await expect(createWorktree({ ...base, repoPath, workDir })).rejects.toMatchObject({
      type: 'InvalidRepo',
      nonRetryable: true,
      message: expect.stringContaining(repoPath),
    });
  });

  it('refuses a folder that is not a git repository, saying to pass one', async () => {
    const repoPath = await makeTempDir();
    dirs.push(repoPath);
    await expect(createWorktree({ ...base, repoPath, workDir: repoPath })).rejects.toMatchObject({
      type: 'InvalidRepo',
      nonRetryable: true,
      message: expect.stringContaining('pass the path of a git repository'),
    });
  });

  it('refuses an unknown base ref, naming the ref and the repository', async () => {
    const { repoPath, workDir } = await setup();
    const failure = createWorktree({ ...base, baseRef: 'no-such-branch', repoPath, workDir });
    await expect(failure).rejects.toMatchObject({ type: 'UnknownBaseRef', nonRetryable: true });
    await expect(failure).rejects.toThrow(/no-such-branch.*repository/);
    await expect(failure).rejects.toThrow(repoPath);
  });

  it('refuses a repository without commits', async () => {
    const { repoPath, workDir } = await setup({});
    await expect(createWorktree({ ...base, repoPath, workDir })).rejects.toMatchObject({
      type: 'EmptyRepo',
      nonRetryable: true,
      message: expect.stringContaining('has no commits'),
    });
  });

  it('refuses a task id that cannot be a branch name', async () => {
    const { repoPath, workDir } = await setup();
    await expect(createWorktree({ ...base, taskId: 'bad..id', repoPath, workDir })).rejects.toMatchObject({
      type: 'InvalidTaskId',
      nonRetryable: true,
    });
  });
});
