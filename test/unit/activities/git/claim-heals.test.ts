// A claim whose `git worktree add` was killed mid-way (its worker SIGKILLed) leaves git's registry entry locked
// "initializing", with a half-made folder or none; the next claim of that attempt must heal it, not fail on "missing but
// locked worktree" until the task fails. The state is made for real: git's add is killed while it checks files out.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree, worktreePathFor } from '../../../../activities/git/create-worktree.js';
import { makeRepo, makeTempDir, removeDirs } from '../../../support/git-repo.js';
import { waitFor } from '../tests/python-project.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const claim = { baseRef: 'main', taskId: 'fix-51', workflowId: 'task-demo-fix-51', attempt: 1 };

/** The registry entries' `locked` files of the repository, with what they say. */
const locks = (repoPath: string) => {
  const registry = path.join(repoPath, '.git', 'worktrees');
  const names = existsSync(registry) ? readdirSync(registry) : [];
  return names
    .map((name) => path.join(registry, name, 'locked'))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8').trim());
};

/**
 * Runs `git worktree add` for the claim's folder with a smudge filter (given on its command line only, so no later
 * git sees it) that marks its start and then sleeps; kills the whole process group once the checkout is under way.
 */
async function killedWorktreeAdd(repoPath: string, worktreePath: string, marker: string): Promise<void> {
  const smudge = `sh -c 'touch ${marker}; sleep 60; cat'`;
  const child = spawn(
    'git',
    [
      '-C',
      repoPath,
      '-c',
      `filter.slow.smudge=${smudge}`,
      'worktree',
      'add',
      '--detach',
      worktreePath,
      'main^{commit}',
    ],
    { detached: true, stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  expect(await waitFor(() => existsSync(marker), 20_000)).toBe(true);
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
}

async function setup() {
  const repoPath = await makeRepo({ '.gitattributes': '*.txt filter=slow\n', 'a.txt': 'a\n', 'README.md': '# r\n' });
  const workDir = await makeTempDir();
  dirs.push(repoPath, workDir);
  const worktreePath = worktreePathFor(workDir, claim.workflowId, claim.attempt);
  await killedWorktreeAdd(repoPath, worktreePath, path.join(workDir, 'smudge-started'));
  // What the kill left: git's entry for the folder, locked "initializing".
  expect(locks(repoPath)).toEqual(['initializing']);
  return { repoPath, workDir, worktreePath };
}

describe('a claim after a killed worktree add', () => {
  it('unlocks, prunes and makes again its own half-made worktree', async () => {
    const { repoPath, workDir, worktreePath } = await setup();
    expect(existsSync(worktreePath)).toBe(true);

    const created = await createWorktree({ ...claim, repoPath, workDir });

    expect(created).toMatchObject({ worktreePath, reused: false });
    expect(readFileSync(path.join(worktreePath, 'a.txt'), 'utf8')).toBe('a\n');
    expect(locks(repoPath)).toEqual([]);
    const list = await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain']);
    expect(list.split('\n').filter((line) => line.startsWith('worktree ')).length).toBe(2);
  });

  it('does the same when the half-made folder is gone too', async () => {
    const { repoPath, workDir, worktreePath } = await setup();
    await rm(worktreePath, { recursive: true, force: true });

    const created = await createWorktree({ ...claim, repoPath, workDir });

    expect(created.reused).toBe(false);
    expect(existsSync(path.join(worktreePath, 'README.md'))).toBe(true);
    expect(locks(repoPath)).toEqual([]);
  });

  it("leaves another attempt's locked entry alone", async () => {
    const { repoPath, workDir } = await setup();

    const other = await createWorktree({ ...claim, repoPath, workDir, workflowId: 'task-demo-other' });

    expect(other.reused).toBe(false);
    expect(locks(repoPath)).toEqual(['initializing']);
  });
});
