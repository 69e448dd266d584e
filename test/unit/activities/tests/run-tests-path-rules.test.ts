// The test node's own run: the change taken as the commit would hold it (a snapshot tree), the review's path rules checked on its paths
// before anything runs (a refused change never executes), the ignored files the attempt made removed first.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { runTests } from '../../../../activities/tests/run-tests.js';
import { makeRepo, removeDirs, writeFiles } from '../../../support/git-repo.js';
import { calcModule, makePythonProject } from './python-project.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const passingTests = {
  'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
};

describe('runTests with the review path rules', () => {
  it('does not run the tests when the review path rules refuse the change', async () => {
    const { baseSha, ...input } = await projectInWorktree();
    // Imported by pytest, it would leave a file in the worktree: the refused edit must never execute.
    await writeFiles(input.worktreePath, {
      'tests/test_calc.py': "open('imported-by-pytest', 'w').close()\n\n\ndef test_add():\n    assert True\n",
    });

    const result = await runTests(withPathRules(input, baseSha));

    expect(result.refused?.map((finding) => finding.rule)).toEqual(['test_file_edited']);
    expect(result.outcome).toBe('error');
    expect(result.counts.total).toBe(0);
    expect(existsSync(path.join(input.worktreePath, 'imported-by-pytest'))).toBe(false);
    expect(existsSync(path.join(input.artifactDir, 'test-out'))).toBe(false);
  });

  it('runs an accepted change and names no refusal', async () => {
    const { baseSha, ...input } = await projectInWorktree();
    await writeFiles(input.worktreePath, { 'calc.py': 'def add(a, b):\n    return b + a\n' });

    const result = await runTests(withPathRules(input, baseSha));

    expect(result).toMatchObject({ outcome: 'passed', counts: { passed: 1 } });
    expect(result.refused).toBeUndefined();
    // A passing change's diff is the review's to store.
    expect(result.diff).toBeUndefined();
  });

  it('stores the diff of a change that failed its tests (it never reaches the review, which stores the others), scrubbed', async () => {
    const { baseSha, ...input } = await projectInWorktree();
    const secret = 'planted-secret-3b9f17';
    await writeFiles(input.worktreePath, {
      'calc.py': `TOKEN = "${secret}"


def add(a, b):
    return a * b
`,
    });

    const result = await runTests({ ...withPathRules(input, baseSha), secretValues: [secret] });

    expect(result.outcome).toBe('failed');
    expect(result.diff).toMatchObject({ path: path.join(input.artifactDir, 'diff.patch') });
    const diff = await readFile(result.diff?.path ?? '', 'utf8');
    expect(diff).toContain('diff --git a/calc.py b/calc.py');
    expect(diff).toContain('+    return a * b');
    expect(diff).toContain('+TOKEN = "[redacted]"');
    expect(diff).not.toContain(secret);
  });

  it('shows no failure pattern for an attempt that changed nothing: its failures are the task’s, not the attempt’s', async () => {
    const { baseSha, ...project } = await projectInWorktree();
    // The base itself fails `assert 3 == 4`, a wrong_constant line; an attempt that changed nothing did not cause it.
    await writeFiles(project.worktreePath, {
      'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 4\n',
    });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: project.worktreePath })
        .toString()
        .trim();
    git('commit', '-qam', 'a failing base');
    const baseNow = git('rev-parse', 'HEAD');
    const coderRun = await runTests({ ...project, artifactDir: path.join(project.root, 'coder-run') });
    expect(coderRun.patterns?.map((pattern) => pattern.type)).toContain('wrong_constant');

    const nodeRun = await runTests({
      ...withPathRules(project, baseNow),
      artifactDir: path.join(project.root, 'node'),
    });

    expect(nodeRun).toMatchObject({ outcome: 'failed', counts: { failed: 1 }, patterns: [] });
    expect(baseSha).not.toBe(baseNow);
  });

  it('removes the ignored files the attempt made before the tests: an ignored conftest.py cannot pass a failing test', async () => {
    // The base commit's .gitignore ignores them (the rules come from the base, never from the worktree's copy).
    const { baseSha, ...project } = await projectInWorktree({ '.gitignore': 'conftest.py\nscratch/\n' });
    // Neither the path rules nor the commit see an ignored file, yet pytest loads it: this one turns failures into passes.
    const forcePass = [
      'import pytest',
      '',
      '@pytest.hookimpl(hookwrapper=True)',
      'def pytest_runtest_makereport(item, call):',
      '    (yield).get_result().outcome = "passed"',
      '',
    ].join('\n');
    const plant = () =>
      writeFiles(project.worktreePath, {
        'calc.py': 'def add(a, b):\n    return a - b\n',
        'tests/conftest.py': forcePass,
        'scratch/notes.txt': 'ignored folder\n',
      });
    await plant();
    // The coder's own run (no path policy) sees the worktree as it is: there the planted file does its work.
    const coderRun = await runTests({ ...project, artifactDir: path.join(project.root, 'coder-run') });
    expect(coderRun.outcome).toBe('passed');

    const nodeRun = await runTests({
      ...withPathRules(project, baseSha),
      artifactDir: path.join(project.root, 'node'),
    });

    expect(nodeRun).toMatchObject({ outcome: 'failed', counts: { failed: 1 } });
    expect(nodeRun.ignoredRemoved?.sort()).toEqual(['scratch', 'tests/conftest.py']);
    expect(existsSync(path.join(project.worktreePath, 'tests/conftest.py'))).toBe(false);
    expect(await readFile(path.join(project.worktreePath, 'calc.py'), 'utf8')).toContain('a - b');
  });
});

/** runTests input with the path policy of a task that allows every path but the tests. */
function withPathRules(input: Omit<Awaited<ReturnType<typeof projectInWorktree>>, 'baseSha'>, baseSha: string) {
  return { ...input, pathPolicy: { baseSha, allowedPaths: [], allowTestEdits: false } };
}

/** runTests input on a real linked worktree of a repository holding calc.py and the passing tests. */
async function projectInWorktree(baseFiles: Record<string, string> = {}) {
  const input = await makePythonProject(passingTests, dirs);
  const repoPath = await makeRepo({ 'calc.py': calcModule, ...passingTests, ...baseFiles });
  dirs.push(repoPath);
  const claim = await createWorktree({
    repoPath,
    workDir: input.root,
    baseRef: 'main',
    taskId: 't1',
    workflowId: 'wf-1',
    attempt: 1,
  });
  return {
    ...input,
    worktreePath: claim.worktreePath,
    testEnv: { PYTHONPATH: claim.worktreePath },
    baseSha: claim.baseSha,
  };
}
