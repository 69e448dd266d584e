// The test activity with the review folded in (no reviewer model): one diff serves the path rules, which stop the
// tests, and the content rules, which run beside them and come back with the test result.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { runTests, TestsHeld } from '../../../../activities/tests/run-tests.js';
import { makeRepo, removeDirs, writeFiles } from '../../../support/git-repo.js';
import { calcModule, makePythonProject } from './python-project.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const passingTests = {
  'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
};

describe('runTests with the review folded in', () => {
  it('runs every review rule on the change before the tests and returns the review with the test result', async () => {
    const { baseSha, ...input } = await projectInWorktree();
    await writeFiles(input.worktreePath, {
      'calc.py': 'def add(a, b):\n    return b + a\n',
      'extra.py': 'def broken(:\n',
    });

    const result = await runWithReview(input, baseSha);

    expect(result.outcome).toBe('passed');
    expect(result.review?.passed).toBe(false);
    expect(result.review?.findings.map((finding) => finding.rule)).toEqual(['python_syntax']);
    expect(result.review?.changedFiles.sort()).toEqual(['calc.py', 'extra.py']);
    expect(existsSync(path.join(input.artifactDir, 'diff.patch'))).toBe(true);
  });

  it('parses the Python files as staged: a test run that rewrites one does not change the finding', async () => {
    const { baseSha, ...input } = await projectInWorktree();
    await writeFiles(input.worktreePath, {
      // Imported by the tests: it "repairs" extra.py while they run.
      'calc.py': "open('extra.py', 'w').write('ok = 1\\n')\n\n\ndef add(a, b):\n    return a + b\n",
      'extra.py': 'def broken(:\n',
    });

    const result = await runWithReview(input, baseSha);

    expect(result.outcome).toBe('passed');
    expect(await readFile(path.join(input.worktreePath, 'extra.py'), 'utf8')).toBe('ok = 1\n');
    expect(result.review?.findings).toEqual([expect.objectContaining({ rule: 'python_syntax', file: 'extra.py' })]);
  });

  it('does not run the tests when the review path rules refuse the change (their sandbox, started early, is killed)', async () => {
    const { baseSha, ...input } = await projectInWorktree();
    // Imported by pytest, it would leave a file in the worktree: the refused edit must never execute.
    await writeFiles(input.worktreePath, {
      'tests/test_calc.py': "open('imported-by-pytest', 'w').close()\n\n\ndef test_add():\n    assert True\n",
    });

    const result = await runWithReview(input, baseSha);

    expect(result.refused?.map((finding) => finding.rule)).toEqual(['test_file_edited']);
    expect(result.counts.total).toBe(0);
    expect(existsSync(path.join(input.worktreePath, 'imported-by-pytest'))).toBe(false);
    // Nothing of the held run is left: no logs, no report folder.
    expect((await readdir(input.artifactDir)).filter((name) => name !== 'diff.patch')).toEqual([]);
  });

  it('starts nothing when mayStart says no (the workflow must decide first): TestsHeld, neither a result nor a refusal', async () => {
    const { baseSha, ...input } = await projectInWorktree();
    await writeFiles(input.worktreePath, {
      'calc.py': "open('imported-by-pytest', 'w').close()\n\n\ndef add(a, b):\n    return a + b\n",
    });
    await expect(runWithReview({ ...input, mayStart: Promise.resolve(false) }, baseSha)).rejects.toBeInstanceOf(
      TestsHeld,
    );
    expect(existsSync(path.join(input.worktreePath, 'imported-by-pytest'))).toBe(false);
    expect((await readdir(input.artifactDir)).filter((name) => name !== 'diff.patch')).toEqual([]);

    // A refusal is a result of the node too: held alike.
    await writeFiles(input.worktreePath, { 'tests/test_calc.py': 'def test_add():\n    assert True\n' });
    await expect(runWithReview({ ...input, mayStart: Promise.resolve(false) }, baseSha)).rejects.toBeInstanceOf(
      TestsHeld,
    );
    // Without the review the answer is awaited before the command too.
    await expect(runTests({ ...input, mayStart: Promise.resolve(false) })).rejects.toBeInstanceOf(TestsHeld);
    expect(existsSync(path.join(input.worktreePath, 'imported-by-pytest'))).toBe(false);

    // A yes runs them as usual.
    const ran = await runWithReview({ ...input, mayStart: Promise.resolve(true) }, baseSha);
    expect(ran.refused?.map((finding) => finding.rule)).toEqual(['test_file_edited']);
  });
});

/** runTests with the path policy of a task that allows every path but the tests, and the rules' review. */
function runWithReview(
  input: Omit<Awaited<ReturnType<typeof projectInWorktree>>, 'baseSha'> & { mayStart?: Promise<boolean> },
  baseSha: string,
) {
  return runTests({
    ...input,
    pathPolicy: { baseSha, allowedPaths: [], allowTestEdits: false },
    review: { secretValues: [], artifactDir: input.artifactDir, hostId: 'host-test', sandbox: input.sandbox },
  });
}

/** runTests input on a real linked worktree of a repository holding calc.py and the passing tests. */
async function projectInWorktree() {
  const input = await makePythonProject(passingTests, dirs);
  const repoPath = await makeRepo({ 'calc.py': calcModule, ...passingTests });
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
