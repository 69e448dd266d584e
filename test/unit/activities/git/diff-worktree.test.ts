import { execa } from 'execa';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { diffTree, diffWorktree } from '../../../../activities/git/diff-worktree.js';
import { splitNumstatAndPatch } from '../../../../activities/git/git-process.js';
import { makeRepo, makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

async function setup() {
  const repoPath = await makeRepo({
    'README.md': '# demo\n',
    'calc.py': 'def add(a, b):\n    return a + b\n',
    'old.txt': 'gone soon\n',
    '.gitignore': 'build/\n',
  });
  const workDir = await makeTempDir();
  dirs.push(repoPath, workDir);
  return createWorktree({ repoPath, workDir, baseRef: 'main', taskId: 't1', workflowId: 'wf-1', attempt: 1 });
}

describe('diffWorktree', () => {
  it('shows new untracked files, modifications and deletions against the base', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, {
      'pkg/new_module.py': 'VALUE = 42\n',
      'calc.py': 'def add(a, b):\n    return a + b + 0\n',
    });
    await rm(path.join(worktreePath, 'old.txt'));

    const result = await diffWorktree({ worktreePath, baseSha });

    expect(result.changedFiles.sort()).toEqual(['calc.py', 'old.txt', 'pkg/new_module.py']);
    expect(result.diff).toContain('+++ b/pkg/new_module.py');
    expect(result.diff).toContain('+VALUE = 42');
    expect(result.diff).toContain('--- a/old.txt');
    expect(result.stat).toEqual({ files: 3, insertions: 2, deletions: 2 });
  });

  it('leaves out files the repository ignores', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, { 'build/out.txt': 'artifact\n', 'kept.txt': 'kept\n' });

    const result = await diffWorktree({ worktreePath, baseSha });

    expect(result.changedFiles).toEqual(['kept.txt']);
  });

  it('returns an empty diff for an untouched worktree', async () => {
    const { worktreePath, baseSha } = await setup();
    expect(await diffWorktree({ worktreePath, baseSha })).toMatchObject({
      diff: '',
      changedFiles: [],
      stat: { files: 0, insertions: 0, deletions: 0 },
      findings: [],
    });
  });

  it('refuses a base sha the worktree does not know', async () => {
    const { worktreePath } = await setup();
    await expect(diffWorktree({ worktreePath, baseSha: 'f'.repeat(40) })).rejects.toMatchObject({
      type: 'UnknownBaseRef',
      nonRetryable: true,
    });
  });

  it('refuses a worktree path that does not exist', async () => {
    const dir = await makeTempDir();
    dirs.push(dir);
    await writeFile(path.join(dir, 'x'), '');
    await expect(diffWorktree({ worktreePath: path.join(dir, 'missing'), baseSha: 'HEAD' })).rejects.toMatchObject({
      type: 'InvalidWorktree',
      nonRetryable: true,
    });
  });
});

describe('diffWorktree stats', () => {
  it('counts a binary file as changed with zero lines', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFile(path.join(worktreePath, 'img.png'), Buffer.from([0, 1, 2, 0, 255]));
    await writeFiles(worktreePath, { 'a.py': 'a = 1\nb = 2\nc = 3\n' });

    const result = await diffWorktree({ worktreePath, baseSha });

    expect(result.changedFiles.sort()).toEqual(['a.py', 'img.png']);
    expect(result.stat).toEqual({ files: 2, insertions: 3, deletions: 0 });
  });

  it('names files as they are on disk, not as git quotes them (accents, spaces, a tab)', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, { 'données/é t.py': 'x = 1\n', 'tab\there.txt': 'y\n' });

    const result = await diffWorktree({ worktreePath, baseSha });

    expect(result.changedFiles.sort()).toEqual(['données/é t.py', 'tab\there.txt']);
    expect(result.stat).toEqual({ files: 2, insertions: 2, deletions: 0 });
  });
});

describe('diffWorktree: a snapshot of the worktree, diffed as trees', () => {
  it('lists the change without touching the worktree’s index, and diffTree gives the same diff by the tree’s id', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, {
      'pkg/deep/new_module.py': 'VALUE = 42\n',
      'calc.py': 'def add(a, b):\n    return a + b + 0\n',
      'build/out.txt': 'ignored\n',
      'données/é t.py': 'x = 1\n',
      'tab\there.txt': 'y\n',
    });
    await writeFile(path.join(worktreePath, 'img.png'), Buffer.from([0, 1, 2, 0, 255]));
    await rm(path.join(worktreePath, 'old.txt'));
    const expected = ['calc.py', 'données/é t.py', 'img.png', 'old.txt', 'pkg/deep/new_module.py', 'tab\there.txt'];

    const taken = await diffWorktree({ worktreePath, baseSha });
    expect(taken.changedFiles.sort()).toEqual(expected);
    // Nothing was staged: the worktree's own index still matches the base.
    expect((await execa('git', ['diff', '--cached', '--name-only'], { cwd: worktreePath })).stdout).toBe('');
    const { treeSha, findings, ...diff } = taken;
    expect(findings).toEqual([]);
    expect(await diffTree({ worktreePath, baseSha, treeSha })).toEqual(diff);
  });

  it('takes files committed in the worktree (HEAD moved from the base) as part of the change against the base', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, { 'tests/test_x.py': 'def test_x():\n    pass\n' });
    await execa('git', ['add', '-A'], { cwd: worktreePath });
    await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'hidden'], { cwd: worktreePath });
    await writeFiles(worktreePath, { 'calc.py': 'x = 1\n' });

    expect((await diffWorktree({ worktreePath, baseSha })).changedFiles.sort()).toEqual(['calc.py', 'tests/test_x.py']);
  });
});

describe('splitNumstatAndPatch', () => {
  it('reads what git prints for --numstat --patch -z: records, one more NUL, the patch; nothing when unchanged', () => {
    const patch = 'diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1,2 @@\n a\n+b\n';
    expect(splitNumstatAndPatch(`1\t0\ta\0-\t-\timg.png\0\0${patch}`)).toEqual({
      patch,
      numstat: {
        files: [
          { file: 'a', insertions: 1, deletions: 0, binary: false },
          { file: 'img.png', insertions: 0, deletions: 0, binary: true },
        ],
        insertions: 1,
        deletions: 0,
      },
    });
    expect(splitNumstatAndPatch('')).toEqual({ patch: '', numstat: { files: [], insertions: 0, deletions: 0 } });
  });
});
