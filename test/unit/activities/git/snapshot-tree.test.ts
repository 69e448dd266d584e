import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { blobId, snapshotWorktree } from '../../../../activities/git/snapshot-tree.js';
import { makeRepo, makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

async function setup(files: Record<string, string> = {}) {
  const repoPath = await makeRepo({
    'README.md': '# demo\n',
    'calc.py': 'X = 1\n',
    '.gitignore': 'build/\n*.log\n',
    ...files,
  });
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

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
const lsTree = (repo: string, tree: string) =>
  git(repo, 'ls-tree', '-r', '--full-tree', tree)
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[1] + ' ' + line.split(' ')[0]);

describe('snapshotWorktree', () => {
  it('takes new, modified and deleted files as a tree in the repository, leaving ignored ones out and listing them', async () => {
    const { repoPath, worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, {
      'calc.py': 'X = 2\n',
      'pkg/new.py': 'Y = 1\n',
      'build/out.txt': 'a\n',
      'run.log': 'b\n',
    });
    await writeFile(path.join(worktreePath, 'README.md'), '');
    execFileSync('rm', [path.join(worktreePath, 'README.md')]);

    const snapshot = await snapshotWorktree({ worktreePath, baseSha });

    expect(snapshot.findings).toEqual([]);
    expect(snapshot.changedFiles).toEqual(['README.md', 'calc.py', 'pkg/new.py']);
    expect(snapshot.ignored.sort()).toEqual(['build/', 'run.log']);
    expect(lsTree(repoPath, snapshot.treeSha)).toEqual(['.gitignore 100644', 'calc.py 100644', 'pkg/new.py 100644']);
    expect(git(repoPath, 'cat-file', 'blob', `${snapshot.treeSha}:pkg/new.py`)).toBe('Y = 1\n');
  });

  it('records a link as a link (its target text), never following it, and keeps the execute bit', async () => {
    const { repoPath, worktreePath, baseSha } = await setup();
    const outside = await makeTempDir();
    dirs.push(outside);
    await writeFile(path.join(outside, 'secret.txt'), 'HOST SECRET\n');
    await symlink(path.join(outside, 'secret.txt'), path.join(worktreePath, 'leak.txt'));
    await symlink(outside, path.join(worktreePath, 'leakdir'));
    await writeFiles(worktreePath, { 'run.sh': '#!/bin/sh\n' });
    await chmod(path.join(worktreePath, 'run.sh'), 0o755);

    const snapshot = await snapshotWorktree({ worktreePath, baseSha });

    expect(lsTree(repoPath, snapshot.treeSha)).toEqual(
      expect.arrayContaining(['leak.txt 120000', 'leakdir 120000', 'run.sh 100755']),
    );
    expect(git(repoPath, 'cat-file', 'blob', `${snapshot.treeSha}:leak.txt`)).toBe(path.join(outside, 'secret.txt'));
    const everything = git(repoPath, 'ls-tree', '-r', snapshot.treeSha);
    expect(everything).not.toContain('secret.txt\n');
  });

  it('skips a FIFO with a finding instead of waiting on it', async () => {
    const { worktreePath, baseSha } = await setup();
    execFileSync('mkfifo', [path.join(worktreePath, 'pipe')]);

    const snapshot = await snapshotWorktree({ worktreePath, baseSha });

    expect(snapshot.findings).toEqual([expect.objectContaining({ rule: 'special_file', file: 'pipe' })]);
    expect(snapshot.changedFiles).toEqual([]);
  });

  it('refuses a .gitmodules or .gitattributes that is a link, as git does, and a name git reads as .git', async () => {
    const { worktreePath, baseSha } = await setup();
    await mkdir(path.join(worktreePath, 'sub'), { recursive: true });
    await symlink('/etc/passwd', path.join(worktreePath, '.gitmodules'));
    await symlink('/etc/passwd', path.join(worktreePath, 'sub', '.gitattributes'));
    await writeFiles(worktreePath, { 'A/.GIT/x': 'x\n' });

    const snapshot = await snapshotWorktree({ worktreePath, baseSha });

    expect(snapshot.findings.map((f) => `${f.rule} ${f.file}`).sort()).toEqual([
      'nested_git A',
      'special_file .gitmodules',
      'special_file sub/.gitattributes',
    ]);
    expect(snapshot.changedFiles).toEqual([]);
  });

  it('leaves a nested repository out as a finding, and never runs the filter its config and attributes name', async () => {
    const { repoPath, worktreePath, baseSha } = await setup();
    const marker = path.join(await makeTempDir(), 'filter-ran');
    dirs.push(path.dirname(marker));
    const nested = path.join(worktreePath, 'vendored');
    git(worktreePath, 'init', '-q', 'vendored');
    await writeFile(path.join(nested, 'f.txt'), 'hi\n');
    git(nested, 'add', 'f.txt');
    git(nested, 'config', 'filter.pwn.clean', `sh -c 'id > ${marker}; cat'`);
    await writeFile(path.join(nested, '.gitattributes'), '* filter=pwn\n');
    await writeFile(path.join(worktreePath, 'fine.txt'), 'fine\n');

    const snapshot = await snapshotWorktree({ worktreePath, baseSha });

    expect(snapshot.findings).toEqual([expect.objectContaining({ rule: 'nested_git', file: 'vendored' })]);
    expect(snapshot.changedFiles).toEqual(['fine.txt']);
    expect(lsTree(repoPath, snapshot.treeSha).some((entry) => entry.startsWith('vendored'))).toBe(false);
    expect(await readFile(marker, 'utf8').catch(() => 'absent')).toBe('absent');
  });

  it("takes a file's bytes as they are whatever a .gitattributes filter in the worktree says: the commit holds them", async () => {
    const { repoPath, worktreePath, baseSha } = await setup();
    // A filter the repository's own config defines, named by attributes the attempt wrote: git add would run it.
    git(repoPath, 'config', 'filter.upper.clean', 'tr a-z A-Z');
    await writeFile(path.join(worktreePath, '.gitattributes'), '* filter=upper text eol=crlf\n');
    const bytes = Buffer.from('lower case\nline two\n');
    await writeFile(path.join(worktreePath, 'data.txt'), bytes);

    const snapshot = await snapshotWorktree({ worktreePath, baseSha });
    const commit = await commitWorktree({
      worktreePath,
      branch: 'taskloop/t1',
      workflowId: 'wf-1',
      attempt: 1,
      message: 'data',
      treeSha: snapshot.treeSha,
    });

    const committed = execFileSync('git', ['-C', repoPath, 'cat-file', 'blob', `${commit.sha}:data.txt`]);
    expect(committed.equals(bytes)).toBe(true);
    expect(git(repoPath, 'rev-parse', `${commit.sha}:data.txt`).trim()).toBe(blobId(bytes));
    expect(git(repoPath, 'rev-parse', `${commit.sha}^{tree}`).trim()).toBe(snapshot.treeSha);
  });

  it('stops at its bounds with findings: too many files, a file too large', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'big.bin': 'x'.repeat(2000) });

    const many = await snapshotWorktree({ worktreePath, baseSha, limits: { maxFiles: 4 } });
    expect(many.findings.map((f) => f.rule)).toEqual(['change_too_large']);

    const large = await snapshotWorktree({ worktreePath, baseSha, limits: { maxFileBytes: 1000 } });
    expect(large.findings).toEqual([expect.objectContaining({ rule: 'file_too_large', file: 'big.bin' })]);
    expect(large.changedFiles).toEqual(['a.txt', 'b.txt']);
  });

  it('refuses a change adding more files than a run may make: one finding, the base tree, nothing written', async () => {
    const { repoPath, worktreePath, baseSha } = await setup();
    const added = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`gen/f${i}.txt`, `unique ${i}\n`]));
    await writeFiles(worktreePath, { ...added, 'calc.py': 'X = 2\n' });
    const objects = () => git(repoPath, 'count-objects', '-v');
    const before = objects();

    const refused = await snapshotWorktree({ worktreePath, baseSha, limits: { maxNewFiles: 29 } });

    expect(refused.findings).toEqual([expect.objectContaining({ rule: 'change_too_large', file: 'gen/f0.txt' })]);
    expect(refused.findings[0]?.message).toContain('adds 30 files, more than the 29 a run may make');
    expect(refused.changedFiles).toEqual([]);
    expect(refused.treeSha).toBe(git(repoPath, 'rev-parse', `${baseSha}^{tree}`).trim());
    expect(objects()).toBe(before);

    const taken = await snapshotWorktree({ worktreePath, baseSha, limits: { maxNewFiles: 30 } });
    expect(taken.findings).toEqual([]);
    expect(taken.changedFiles).toHaveLength(31);
  });

  it('ignores by the base commit’s rules, not by a .gitignore the attempt rewrote', async () => {
    const { worktreePath, baseSha } = await setup();
    await writeFiles(worktreePath, { '.gitignore': '*\n', 'new.py': 'Z = 1\n', 'sub/x.log': 'log\n' });
    await mkdir(path.join(worktreePath, 'build'), { recursive: true });

    const snapshot = await snapshotWorktree({ worktreePath, baseSha });

    expect(snapshot.changedFiles).toEqual(['.gitignore', 'new.py']);
    expect(snapshot.ignored.sort()).toEqual(['build/', 'sub/x.log']);
  });
});
