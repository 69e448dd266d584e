// The test activity with the review folded in (no reviewer model): one diff serves the path rules, which stop the
// tests, and the content rules, which run beside them and come back with the test result.
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { runTests, startHeldRun, TestsHeld } from '../../../../activities/tests/run-tests.js';
import { makeRepo, removeDirs, writeFiles } from '../../../support/git-repo.js';
import { calcModule, makePythonProject, waitFor } from './python-project.js';

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

    // Without the rules' review (a reviewer model does it), the path rules still refuse before anything runs.
    const { review: _review, ...unreviewed } = reviewed(input, baseSha);
    const refused = await runTests({ ...unreviewed, artifactDir: path.join(input.worktreePath, '..', 'unreviewed') });
    expect(refused.refused?.map((finding) => finding.rule)).toEqual(['test_file_edited']);
    expect(refused.counts.total).toBe(0);
    expect(existsSync(path.join(input.worktreePath, 'imported-by-pytest'))).toBe(false);
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

  it('uses a run held since before the change was made (the coder activity starts it), untouched by runs meanwhile', async () => {
    const { baseSha, ...project } = await projectInWorktree();
    const input = { ...reviewed(project, baseSha), processDir: path.join(project.root, 'processes') };
    const prepared = startHeldRun(input);
    // Its sandbox is up (its log files are open) before the coder's own run below starts.
    expect(await waitFor(() => existsSync(path.join(input.artifactDir, 'raw', 'stdout.log')))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The coder edits, and runs the tests itself in the same worktree: that run kills the group recorded there first.
    await writeFiles(input.worktreePath, { 'calc.py': 'def add(a, b):\n    return b + a\n' });
    const coderRun = await runTests({
      ...project,
      processDir: input.processDir,
      artifactDir: path.join(project.root, 'coder-run'),
    });
    expect(coderRun.outcome).toBe('passed');
    expect(await readdir(input.processDir)).toEqual([]); // the held run is not recorded yet

    const result = await runTests(input, prepared);

    expect(result).toMatchObject({ outcome: 'passed', counts: { passed: 1 } });
    expect(result.review?.changedFiles).toEqual(['calc.py']);
    // The node's result is the held run's own.
    expect(await prepared.result).toMatchObject({ outcome: 'passed', durationMs: result.durationMs });
    expect(await readdir(input.processDir)).toEqual([]); // its record is cleared after it
  });

  it('runs afresh when the held run ended before it was decided (its program did not exist yet)', async () => {
    const { baseSha, ...project } = await projectInWorktree();
    const input = { ...reviewed(project, baseSha), command: ['./check.sh'] };
    const prepared = startHeldRun(input);
    await expect(prepared.result).resolves.toMatchObject({ outcome: 'error' });
    expect(prepared.endedUndecided()).toBe(true);
    // The coder writes the program.
    await writeFiles(input.worktreePath, { 'check.sh': '#!/bin/sh\necho checked\n' });
    await chmod(path.join(input.worktreePath, 'check.sh'), 0o755);

    const result = await runTests(input, prepared);

    expect(result).toMatchObject({ outcome: 'passed', exitCode: 0, stdoutExcerpt: 'checked\n' });
  });

  it('removes the ignored files the attempt made before the tests: an ignored conftest.py cannot pass a failing test', async () => {
    const { baseSha, ...project } = await projectInWorktree();
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
        '.gitignore': 'conftest.py\nscratch/\n',
        'calc.py': 'def add(a, b):\n    return a - b\n',
        'tests/conftest.py': forcePass,
        'scratch/notes.txt': 'ignored folder\n',
      });
    await plant();
    // The coder's own run (no path policy) sees the worktree as it is: there the planted file does its work.
    const coderRun = await runTests({ ...project, artifactDir: path.join(project.root, 'coder-run') });
    expect(coderRun.outcome).toBe('passed');

    const withReview = await runWithReview(project, baseSha);

    expect(withReview).toMatchObject({ outcome: 'failed', counts: { failed: 1 } });
    expect(withReview.ignoredRemoved?.sort()).toEqual(['scratch', 'tests/conftest.py']);
    expect(existsSync(path.join(project.worktreePath, 'tests/conftest.py'))).toBe(false);
    expect(withReview.review?.changedFiles.sort()).toEqual(['.gitignore', 'calc.py']);

    // The node without the review rules (a reviewer model reviews later) removes them too.
    await plant();
    const pathPolicy = { baseSha, allowedPaths: [], allowTestEdits: false };
    const withoutReview = await runTests({ ...project, pathPolicy, artifactDir: path.join(project.root, 'node-run') });
    expect(withoutReview.outcome).toBe('failed');
    expect(withoutReview.ignoredRemoved?.sort()).toEqual(['scratch', 'tests/conftest.py']);
    expect(await readFile(path.join(project.worktreePath, 'calc.py'), 'utf8')).toContain('a - b');
  });

  it('closes a held run it does not use: the node without the review rules, or input it refuses', async () => {
    const { baseSha, ...project } = await projectInWorktree();
    const marker = "open('imported-by-pytest', 'w').close()\n\n\ndef add(a, b):\n    return a + b\n";
    await writeFiles(project.worktreePath, { 'calc.py': marker });
    const unused = startHeldRun(reviewed(project, baseSha));
    const held = await runTests({ ...project, mayStart: Promise.resolve(false) }, unused).catch((error) => error);
    expect(held).toBeInstanceOf(TestsHeld);
    await expect(unused.result).rejects.toThrow('the held test run was discarded');
    const invalid = startHeldRun(reviewed(project, baseSha));
    await expect(runTests({ ...reviewed(project, baseSha), timeoutMs: 0 }, invalid)).rejects.toThrow('timeoutMs');
    await expect(invalid.result).rejects.toThrow('the held test run was discarded');
    expect(existsSync(path.join(project.worktreePath, 'imported-by-pytest'))).toBe(false);
  });
});

/** runTests input with the path policy of a task that allows every path but the tests, and the rules' review. */
function reviewed(input: Omit<Awaited<ReturnType<typeof projectInWorktree>>, 'baseSha'>, baseSha: string) {
  return {
    ...input,
    pathPolicy: { baseSha, allowedPaths: [], allowTestEdits: false },
    review: { secretValues: [], artifactDir: input.artifactDir, hostId: 'host-test', sandbox: input.sandbox },
  };
}

/** runTests with the path policy of a task that allows every path but the tests, and the rules' review. */
function runWithReview(
  input: Omit<Awaited<ReturnType<typeof projectInWorktree>>, 'baseSha'> & { mayStart?: Promise<boolean> },
  baseSha: string,
) {
  return runTests(reviewed(input, baseSha));
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
