// The index reader against git itself: each case is a real repository, and the answer must be `git ls-files`'s.
import { execa } from 'execa';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listRepoFiles } from '../../../../activities/coder/repo-map.js';
import { readIndexPaths } from '../../../../activities/git/index-paths.js';

const identity = ['-c', 'user.name=t', '-c', 'user.email=t@example.com'];
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

async function repoWith(files: Record<string, string>, init: string[] = []): Promise<string> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'taskloop-index-'));
  dirs.push(base);
  const repo = path.join(base, 'repo');
  await mkdir(repo);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, name)), { recursive: true });
    await writeFile(path.join(repo, name), content);
  }
  await git(repo, 'init', '-q', '-b', 'main', ...init);
  await git(repo, 'add', '-A');
  await git(repo, ...identity, 'commit', '-q', '-m', 'seed');
  return repo;
}

const git = async (cwd: string, ...args: string[]) => (await execa('git', args, { cwd })).stdout;
const lsFiles = async (cwd: string) =>
  [...new Set((await git(cwd, 'ls-files', '-z')).split('\0').filter(Boolean))].sort();
const indexPaths = (repo: string, hashBytes: 20 | 32 = 20) =>
  readIndexPaths(path.join(repo, '.git'), hashBytes)?.sort();

// Nested folders, names with spaces and non-ASCII letters, a name of one letter and a long one.
const files = {
  'calc/__init__.py': '',
  'calc/ops.py': 'def add(a, b):\n    return a + b\n',
  'tests/test ops.py': 'def test_add():\n    pass\n',
  'docs/café/naïve.md': '# notes\n',
  a: 'x\n',
  [`deep/${'n'.repeat(200)}.txt`]: 'long\n',
};

describe("reading a worktree's git index without git", () => {
  it('lists what git ls-files lists, in index versions 2, 3 and 4', async () => {
    const repo = await repoWith(files);
    expect(await git(repo, 'update-index', '--index-version', '2')).toBe('');
    expect(indexPaths(repo)).toEqual(await lsFiles(repo));
    // An intent-to-add entry carries the extended flags (version 3).
    await writeFile(path.join(repo, 'calc/new.py'), 'pass\n');
    await git(repo, 'add', '-N', 'calc/new.py');
    expect((await readFile(path.join(repo, '.git', 'index'))).readUInt32BE(4)).toBe(3);
    expect(indexPaths(repo)).toContain('calc/new.py');
    expect(indexPaths(repo)).toEqual(await lsFiles(repo));
    // Version 4 compresses each name against the one before it.
    await git(repo, 'update-index', '--index-version', '4');
    expect(indexPaths(repo)).toEqual(await lsFiles(repo));
  });

  it('lists a path longer than the 4095 bytes its entry can count', async () => {
    // Longer than a file system path may be, so made in the index alone.
    const long = Array.from({ length: 24 }, (_, index) => `${index}${'d'.repeat(190)}`).join('/');
    const repo = await repoWith({ 'b.py': 'pass\n' });
    const blob = await git(repo, 'hash-object', '-w', 'b.py');
    await git(repo, 'update-index', '--add', '--cacheinfo', `100644,${blob},${long}/f.py`);
    expect(Buffer.byteLength(long)).toBeGreaterThan(4095);
    expect(indexPaths(repo)).toEqual([`${long}/f.py`, 'b.py'].sort());
    expect(indexPaths(repo)).toEqual(await lsFiles(repo));
  });

  it('lists each path of a conflict once', async () => {
    const repo = await repoWith({ 'c.py': 'x = 0\n' });
    await git(repo, 'checkout', '-q', '-b', 'other');
    await writeFile(path.join(repo, 'c.py'), 'x = 1\n');
    await git(repo, ...identity, 'commit', '-qam', 'one');
    await git(repo, 'checkout', '-q', 'main');
    await writeFile(path.join(repo, 'c.py'), 'x = 2\n');
    await git(repo, ...identity, 'commit', '-qam', 'two');
    await execa('git', ['merge', '-q', 'other'], { cwd: repo, reject: false });
    expect((await git(repo, 'ls-files', '-u')).split('\n')).toHaveLength(3);
    expect(indexPaths(repo)).toEqual(['c.py']);
  });

  it('reads a SHA-256 repository with 32-byte names', async () => {
    const repo = await repoWith(files, ['--object-format=sha256']);
    expect(indexPaths(repo, 32)).toEqual(await lsFiles(repo));
    expect(indexPaths(repo, 20)).toBeUndefined();
  });

  it('gives up on a split index, a sparse index, a truncated file and a missing one', async () => {
    const split = await repoWith(files);
    await git(split, 'update-index', '--split-index');
    await writeFile(path.join(split, 'a'), 'changed\n');
    await git(split, 'add', 'a');
    expect(indexPaths(split)).toBeUndefined();

    const sparse = await repoWith(files);
    await git(sparse, 'sparse-checkout', 'set', '--cone', '--sparse-index', 'calc');
    expect(await git(sparse, 'ls-files', '--sparse')).toContain('docs/');
    expect(indexPaths(sparse)).toBeUndefined();

    const truncated = await repoWith(files);
    const index = path.join(truncated, '.git', 'index');
    await truncate(index, (await readFile(index)).length - 40);
    expect(indexPaths(truncated)).toBeUndefined();

    expect(readIndexPaths(path.join(truncated, 'nowhere'), 20)).toBeUndefined();
  });

  it('lists a fresh linked worktree as git does, and asks git once it has untracked files', async () => {
    const repo = await repoWith(files);
    const worktree = path.join(path.dirname(repo), 'wt');
    await git(repo, 'worktree', 'add', '-q', '--detach', worktree, 'HEAD');
    const expected = await lsFiles(worktree);
    expect(await listRepoFiles(worktree, { untouched: true })).toEqual(expected);
    await writeFile(path.join(worktree, 'untracked.py'), 'pass\n');
    expect(await listRepoFiles(worktree)).toEqual([...expected, 'untracked.py'].sort());
  });
});
