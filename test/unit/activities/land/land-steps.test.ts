// The landing's git steps on real repositories: merge in the object store, the compare-and-swap, the checked-out
// target's fast-forward or refusal, and a change never landed twice.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { landChange } from '../../../../activities/land/land-change.js';
import { withTreeFiles } from '../../../../activities/land/materialize-tree.js';
import { mergeChange } from '../../../../activities/land/merge-change.js';
import { makeRepo, makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

/** A repository on main with a branch `taskloop/<name>` that changes `files` from the first commit. */
async function repoWithBranches(branches: Record<string, Record<string, string>>) {
  const repo = await makeRepo({ 'calc.py': 'def add(a, b):\n    return a + b\n', 'notes.txt': 'one\n' });
  const workDir = await makeTempDir();
  dirs.push(repo, workDir);
  const git = simpleGit(repo);
  const shas: Record<string, string> = {};
  for (const [name, files] of Object.entries(branches)) {
    await git.raw(['checkout', '-q', '-b', `taskloop/${name}`, 'main']);
    await writeFiles(repo, files);
    await git.raw(['commit', '-q', '-am', name]);
    shas[name] = (await git.revparse(['HEAD'])).trim();
  }
  await git.raw(['checkout', '-q', 'main']);
  return { repo, workDir, git, shas };
}

const date = '2026-12-07T20:00:00Z';

describe('the landing steps', () => {
  it('merges a change onto a target that moved, tests nothing yet, and lands it with a compare-and-swap', async () => {
    const { repo, workDir, git, shas } = await repoWithBranches({
      t1: { 'calc.py': 'def add(a, b):\n    return b + a\n' },
    });
    await writeFiles(repo, { 'notes.txt': 'two\n' });
    await git.raw(['commit', '-q', '-am', 'main moves']);
    const head = (await git.revparse(['main'])).trim();
    const input = { repo, workDir, target: 'main', sha: shas.t1!, branch: 'taskloop/t1', date };

    const found = await mergeChange(input);
    expect(found).toMatchObject({ kind: 'merged', targetHead: head, fastForward: false });
    if (found.kind !== 'merged') throw new Error('not merged');
    // The same merge again makes the same commit: a retried step never makes a second one.
    expect(await mergeChange(input)).toEqual(found);
    // The user's checkout did not move: the merge lives in the object store only.
    expect((await git.revparse(['main'])).trim()).toBe(head);
    // The folder of a worker killed during its test run (SIGKILL skips the removal) goes with the next run on the
    // host; a live process's folder stays; the run's own folder is removed when it ends.
    const landingDir = path.join(workDir, 'landing');
    await mkdir(path.join(landingDir, 'run-999999999-dead'), { recursive: true });
    await mkdir(path.join(landingDir, `run-${process.pid}-alive`), { recursive: true });
    await withTreeFiles(landingDir, path.join(repo, '.git'), found.tree, async (folder) => {
      expect(path.dirname(path.dirname(folder))).toBe(landingDir);
      expect(await readFile(path.join(folder, 'calc.py'), 'utf8')).toContain('return b + a');
      expect(await readFile(path.join(folder, 'notes.txt'), 'utf8')).toBe('two\n');
    });
    expect(await readdir(landingDir)).toEqual([`run-${process.pid}-alive`]);

    const landed = await landChange({ ...input, merged: found.merged, expectedHead: head });
    expect(landed).toEqual({ kind: 'landed', landed: found.merged, alreadyThere: false });
    // main is checked out (clean): its files moved with the branch, so the user's tree does not look changed.
    expect(await readFile(path.join(repo, 'calc.py'), 'utf8')).toContain('return b + a');
    expect((await git.raw(['status', '--porcelain'])).trim()).toBe('');
    // Landing again finds it there: never twice.
    expect(await landChange({ ...input, merged: found.merged, expectedHead: head })).toMatchObject({ kind: 'landed' });
    expect(await mergeChange(input)).toEqual({ kind: 'already_landed', targetHead: found.merged });
    expect((await git.raw(['rev-list', '--count', 'main'])).trim()).toBe('4');
  });

  it('reports a target that moved after the merge and never overwrites it', async () => {
    const { repo, workDir, git, shas } = await repoWithBranches({
      t1: { 'calc.py': 'def add(a, b):\n    return b + a\n' },
    });
    await git.raw(['checkout', '-q', '--detach']);
    const head = (await git.revparse(['main'])).trim();
    const input = { repo, workDir, target: 'main', sha: shas.t1!, branch: 'taskloop/t1', date };
    const found = await mergeChange(input);
    if (found.kind !== 'merged') throw new Error('not merged');
    expect(found.fastForward).toBe(true);
    await git.raw(['checkout', '-q', 'main']);
    await writeFiles(repo, { 'notes.txt': 'someone else\n' });
    await git.raw(['commit', '-q', '-am', 'a person lands first']);
    const moved = (await git.revparse(['main'])).trim();
    await git.raw(['checkout', '-q', '--detach']);

    expect(await landChange({ ...input, merged: found.merged, expectedHead: head })).toEqual({
      kind: 'moved',
      targetHead: moved,
    });
    expect((await git.revparse(['main'])).trim()).toBe(moved);
  });

  it('finds a conflict with its files and hunks', async () => {
    const { repo, workDir, shas } = await repoWithBranches({
      t1: { 'calc.py': 'def add(a, b):\n    return b + a\n' },
      t2: { 'calc.py': 'def add(a, b):\n    return sum((a, b))\n' },
    });
    const common = { repo, workDir, target: 'main', date };
    const first = await mergeChange({ ...common, sha: shas.t1!, branch: 'taskloop/t1' });
    if (first.kind !== 'merged') throw new Error('not merged');
    await landChange({ ...common, sha: shas.t1!, merged: first.merged, expectedHead: first.targetHead });

    const second = await mergeChange({ ...common, sha: shas.t2!, branch: 'taskloop/t2' });
    expect(second).toMatchObject({ kind: 'conflict', targetHead: first.merged, conflict: { files: ['calc.py'] } });
    if (second.kind !== 'conflict') throw new Error('no conflict');
    expect(second.conflict.hunks).toContain('<<<<<<<');
    expect(second.conflict.hunks).toContain('return sum((a, b))');
  });

  it('refuses to land on a branch checked out with uncommitted changes, and leaves both alone', async () => {
    const { repo, workDir, git, shas } = await repoWithBranches({
      t1: { 'calc.py': 'def add(a, b):\n    return b + a\n' },
    });
    await writeFiles(repo, { 'notes.txt': 'my own work\n' });
    const head = (await git.revparse(['main'])).trim();
    const input = { repo, workDir, target: 'main', sha: shas.t1!, branch: 'taskloop/t1', date };
    const found = await mergeChange(input);
    if (found.kind !== 'merged') throw new Error('not merged');

    await expect(landChange({ ...input, merged: found.merged, expectedHead: head })).rejects.toMatchObject({
      type: 'LandingRefused',
      message: expect.stringMatching(/main is checked out in .* with uncommitted changes \(notes\.txt\)/),
    });
    expect((await git.revparse(['main'])).trim()).toBe(head);
    expect(await readFile(path.join(repo, 'notes.txt'), 'utf8')).toBe('my own work\n');
  });

  it('refuses a target branch that does not exist', async () => {
    const { repo, workDir, shas } = await repoWithBranches({ t1: { 'notes.txt': 'x\n' } });
    await expect(
      mergeChange({ repo, workDir, target: 'release', sha: shas.t1!, branch: 'taskloop/t1', date }),
    ).rejects.toMatchObject({
      type: 'LandingRefused',
      message: expect.stringContaining('landOn "release" is not a branch'),
    });
  });
});
