import path from 'node:path';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { planEnvironment } from '../../../../activities/environments/plan.js';
import { makeRepo, removeDirs, writeFiles } from '../../../support/git-repo.js';

describe('planEnvironment keys an environment by its dependency files at the base', () => {
  const dirs: string[] = [];
  afterEach(() => removeDirs(dirs));

  async function commit(repoPath: string, files: Record<string, string>): Promise<string> {
    await writeFiles(repoPath, files);
    const git = simpleGit(repoPath);
    await git.raw(['add', '-A']);
    await git.raw(['commit', '-q', '-m', 'change']);
    return (await git.revparse(['HEAD'])).trim();
  }

  const plan = (repoPath: string, baseSha: string, spec: Parameters<typeof planEnvironment>[0]['spec']) =>
    planEnvironment({
      repo: repoPath,
      repoPath,
      baseSha,
      spec,
      installer: 'pip',
      cacheDir: path.join(repoPath, '.cache'),
    });

  it('a changed dependency file changes the key; a changed source file does not', async () => {
    const repoPath = await makeRepo({ 'requirements.txt': 'attrs==23.1.0\n', 'app.py': 'x = 1\n' });
    dirs.push(repoPath);
    const git = simpleGit(repoPath);
    const base = (await git.revparse(['HEAD'])).trim();
    // Written set-up lines: the key must still follow the files (auto's lines would change with them anyway).
    const spec = { setup: ['pip install -r requirements.txt'] };
    const first = await plan(repoPath, base, spec);
    expect(Object.keys(first.files)).toEqual(['requirements.txt']);
    const sourceOnly = await commit(repoPath, { 'app.py': 'x = 2\n' });
    expect((await plan(repoPath, sourceOnly, spec)).key).toBe(first.key);
    const pinned = await commit(repoPath, { 'requirements.txt': 'attrs==24.2.0\n' });
    const second = await plan(repoPath, pinned, spec);
    expect(second.key).not.toBe(first.key);
    expect(second.name).toMatch(new RegExp(`-${second.key}$`));
    // The key is read at the base commit, not from the folder: the first base still gives the first key.
    expect((await plan(repoPath, base, spec)).key).toBe(first.key);
  });

  it('a named file keys the environment whether or not it is a dependency file by name', async () => {
    const repoPath = await makeRepo({ 'deps/lock.txt': 'a\n', 'requirements.txt': 'b\n' });
    dirs.push(repoPath);
    const base = (await simpleGit(repoPath).revparse(['HEAD'])).trim();
    const spec = { setup: ['true'], files: ['deps/lock.txt'] };
    const first = await plan(repoPath, base, spec);
    expect(Object.keys(first.files)).toEqual(['deps/lock.txt']);
    const unnamed = await commit(repoPath, { 'requirements.txt': 'c\n' });
    expect((await plan(repoPath, unnamed, spec)).key).toBe(first.key);
    const named = await commit(repoPath, { 'deps/lock.txt': 'd\n' });
    expect((await plan(repoPath, named, spec)).key).not.toBe(first.key);
  });
});
