import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { addDetachedWorktree, baseAsSeenFromWorktree } from '../../../../activities/git/add-worktree.js';
import { openRepo } from '../../../../activities/git/run-git.js';
import { makeRepo, makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';
import { tracedGitCommands } from '../../../support/git-trace.js';

const dirs: string[] = [];
afterEach(() => {
  delete process.env.GIT_TRACE;
  return removeDirs(dirs);
});

/** A repository with two commits on main (README, then calc.py) and a work folder. */
async function setup() {
  const repoPath = await makeRepo({ 'README.md': '# demo\n' });
  await writeFiles(repoPath, { 'calc.py': 'x = 1\n' });
  await simpleGit(repoPath).add('calc.py').commit('second');
  const workDir = await makeTempDir();
  dirs.push(repoPath, workDir);
  const sha = async (ref: string) => (await simpleGit(repoPath).revparse([ref])).trim();
  return { repoPath, worktreePath: path.join(workDir, 'wt-a1'), sha, traceFile: path.join(workDir, 'trace.log') };
}

/** What git reports of the worktree: its HEAD, whether it is detached, and whether its files match HEAD. */
async function describeWorktree(repoPath: string, worktreePath: string) {
  const porcelain = await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain']);
  const block = porcelain.split('\n\n').find((entry) => entry.startsWith(`worktree ${worktreePath}\n`)) ?? '';
  return {
    head: /^HEAD (\S+)$/m.exec(block)?.[1],
    detached: /^detached$/m.test(block),
    locked: /^locked/m.test(block),
    status: await simpleGit(worktreePath).raw(['status', '--porcelain']),
  };
}

describe('addDetachedWorktree', () => {
  it('registers the worktree as git does, with one git process, and writes no ref', async () => {
    const { repoPath, worktreePath, sha, traceFile } = await setup();
    const refsBefore = await simpleGit(repoPath).raw(['for-each-ref']);

    const commands = await tracedGitCommands(traceFile, async () =>
      addDetachedWorktree(await openRepo(repoPath), repoPath, worktreePath, 'main'),
    );

    expect(commands).toEqual(['checkout']);
    expect(await describeWorktree(repoPath, worktreePath)).toEqual({
      head: await sha('main'),
      detached: true,
      locked: false,
      status: '',
    });
    expect(await readFile(path.join(worktreePath, 'calc.py'), 'utf8')).toBe('x = 1\n');
    expect(await simpleGit(repoPath).raw(['for-each-ref'])).toBe(refsBefore);
    // git itself removes it afterwards, and nothing is left to prune.
    await simpleGit(repoPath).raw(['worktree', 'remove', worktreePath]);
    expect(existsSync(worktreePath)).toBe(false);
    expect(await simpleGit(repoPath).raw(['worktree', 'prune', '--dry-run', '--verbose'])).toBe('');
  });

  it("takes HEAD as the repository's HEAD, not the new worktree's", async () => {
    const { repoPath, worktreePath, sha, traceFile } = await setup();
    await simpleGit(repoPath).raw(['checkout', '-q', '--detach', 'main~1']);

    const commands = await tracedGitCommands(traceFile, async () =>
      addDetachedWorktree(await openRepo(repoPath), repoPath, worktreePath, 'HEAD'),
    );

    expect(commands).toEqual(['checkout']);
    expect((await describeWorktree(repoPath, worktreePath)).head).toBe(await sha('main~1'));
  });

  it('leaves to git a base written as an expression and a repository with per-worktree config, with the same result', async () => {
    const { repoPath, worktreePath, sha, traceFile } = await setup();
    const expression = await tracedGitCommands(traceFile, async () =>
      addDetachedWorktree(await openRepo(repoPath), repoPath, worktreePath, 'main~1'),
    );
    expect(expression).toContain('worktree');
    expect(await describeWorktree(repoPath, worktreePath)).toMatchObject({ head: await sha('main~1'), status: '' });

    await simpleGit(repoPath).raw(['config', 'extensions.worktreeConfig', 'true']);
    const second = path.join(path.dirname(worktreePath), 'wt-a2');
    const configured = await tracedGitCommands(`${traceFile}.2`, async () =>
      addDetachedWorktree(await openRepo(repoPath), repoPath, second, 'main'),
    );
    expect(configured).toContain('worktree');
    expect(await describeWorktree(repoPath, second)).toMatchObject({ head: await sha('main'), detached: true });
  });

  it('replaces the locked entry an interrupted add of the same folder left, so none lingers', async () => {
    const { repoPath, worktreePath, sha } = await setup();
    // What a worker killed between the entry's files and the checkout leaves (its folder already removed as debris).
    const entry = path.join(repoPath, '.git', 'worktrees', 'wt-a1');
    await mkdir(entry, { recursive: true });
    await writeFile(path.join(entry, 'gitdir'), `${path.join(worktreePath, '.git')}\n`);
    await writeFile(path.join(entry, 'locked'), 'initializing\n');

    await addDetachedWorktree(await openRepo(repoPath), repoPath, worktreePath, 'main');

    expect(readdirSync(path.join(repoPath, '.git', 'worktrees'))).toEqual(['wt-a1']);
    expect(await describeWorktree(repoPath, worktreePath)).toMatchObject({ head: await sha('main'), locked: false });
  });

  it('leaves nothing behind when the base is unknown (git says why)', async () => {
    const { repoPath, worktreePath } = await setup();

    await expect(addDetachedWorktree(await openRepo(repoPath), repoPath, worktreePath, 'nope')).rejects.toThrow(/nope/);

    expect(existsSync(worktreePath)).toBe(false);
    expect(
      existsSync(path.join(repoPath, '.git', 'worktrees')) ? readdirSync(path.join(repoPath, '.git', 'worktrees')) : [],
    ).toEqual([]);
  });
});

describe('baseAsSeenFromWorktree', () => {
  it('names shared refs as they are, HEAD as the main worktree, and leaves the rest to git', () => {
    expect(baseAsSeenFromWorktree('HEAD')).toBe('main-worktree/HEAD');
    for (const shared of ['main', 'release/1.2', 'v1.0', 'origin/main', 'refs/heads/main', 'a'.repeat(40)])
      expect(baseAsSeenFromWorktree(shared)).toBe(shared);
    for (const other of [
      'ORIG_HEAD',
      'FETCH_HEAD',
      'refs/bisect/bad',
      'refs/worktree/x',
      'main~1',
      'HEAD^',
      'main@{1}',
      '@',
      '-x',
      'a..b',
      'x.lock',
      'worktrees/w/HEAD',
    ])
      expect(baseAsSeenFromWorktree(other)).toBeUndefined();
  });
});
