// The test activity that also commits (rule-only review and judge): real git worktrees, real pytest in the sandbox,
// the real commit and removal. It commits only what the judge passes, and a retry never runs the tests twice or
// makes a second commit.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { commitThenRemove } from '../../../../activities/git/commit-then-remove.js';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { testThenCommit } from '../../../../activities/tests/commit-after-tests.js';
import { runTests } from '../../../../activities/tests/run-tests.js';
import { makeRepo, removeDirs, writeFiles } from '../../../support/git-repo.js';
import { calcModule, makePythonProject } from './python-project.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const tests = {
  'tests/test_calc.py':
    'from calc import add, sub\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n',
};
const wrongSub = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n';
const brokenSub = `${calcModule}\n\ndef sub(a, b):\n    return 0\n`;
const fixedSub = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';

describe('testThenCommit', () => {
  it('commits and removes the worktree when the judge passes; a retry returns the same verdict and commit', async () => {
    const attempt = await claimedAttempt();
    await writeFiles(attempt.worktreePath, { 'calc.py': fixedSub });

    const first = await testThenCommit(attempt.input([]));
    const retried = await testThenCommit(attempt.input([]));

    expect(first).toMatchObject({ outcome: 'passed', review: { passed: true }, judge: { passed: true } });
    expect(first.commit).toMatchObject({ created: true, branch: 'taskloop/t1', worktreeRemoved: true });
    expect(existsSync(attempt.worktreePath)).toBe(false);
    const git = simpleGit(attempt.repoPath);
    expect((await git.raw(['rev-parse', 'taskloop/t1'])).trim()).toBe(first.commit?.sha);
    expect(await git.raw(['show', 'taskloop/t1:calc.py'])).toBe(fixedSub);
    expect(await git.raw(['log', '-1', '--format=%B', 'taskloop/t1'])).toContain('Taskloop-Run: wf-1/1');
    // The retry found the saved verdict and the saved commit: no second test run, no second commit.
    expect(retried).toEqual(first);
    expect(attempt.testRuns()).toBe(1);
    expect(attempt.commits()).toBe(1);
  });

  it('commits nothing when the tests fail, and a retry runs the tests again', async () => {
    const attempt = await claimedAttempt();
    await writeFiles(attempt.worktreePath, { 'calc.py': wrongSub });

    const first = await testThenCommit(attempt.input([]));
    await testThenCommit(attempt.input([]));

    expect(first.outcome).toBe('failed');
    expect(first.judge).toMatchObject({ passed: false, findings: [{ rule: 'tests_failed' }] });
    expect(first.commit).toBeUndefined();
    expect(attempt.commits()).toBe(0);
    expect(attempt.testRuns()).toBe(2);
    expect(existsSync(attempt.worktreePath)).toBe(true);
  });

  it('commits nothing when an acceptance test is missing, though every test passed', async () => {
    const attempt = await claimedAttempt();
    await writeFiles(attempt.worktreePath, { 'calc.py': fixedSub });

    const result = await testThenCommit(attempt.input(['tests/test_calc.py::test_mul']));

    expect(result.outcome).toBe('passed');
    expect(result.judge?.findings.map((finding) => finding.rule)).toEqual(['acceptance_missing']);
    expect(result.commit).toBeUndefined();
    expect(attempt.commits()).toBe(0);
  });

  it('commits nothing when the review refuses the change (its tests never ran)', async () => {
    const attempt = await claimedAttempt();
    await writeFiles(attempt.worktreePath, { 'tests/test_calc.py': 'def test_add():\n    assert True\n' });

    const result = await testThenCommit(attempt.input([]));

    expect(result.refused?.map((finding) => finding.rule)).toEqual(['test_file_edited']);
    expect(result.judge).toBeUndefined();
    expect(result.commit).toBeUndefined();
    expect(attempt.commits()).toBe(0);
  });

  it('says the tests passed when the commit fails, keeps its type, and a retry goes straight to the commit', async () => {
    const attempt = await claimedAttempt();
    await writeFiles(attempt.worktreePath, { 'calc.py': fixedSub });
    // A worktree whose HEAD is on another branch than the task's: the commit refuses it (BranchMismatch).
    await simpleGit(attempt.worktreePath).raw(['switch', '-q', '-c', 'someone-else']);

    const failures = [
      await testThenCommit(attempt.input([])).catch((error: unknown) => error),
      await testThenCommit(attempt.input([])).catch((error: unknown) => error),
    ];

    for (const failure of failures) {
      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure).toMatchObject({ type: 'BranchMismatch', nonRetryable: true });
      expect((failure as Error).message).toMatch(/^the tests passed; the commit failed: /);
    }
    expect(attempt.testRuns()).toBe(1);
    expect(existsSync(attempt.worktreePath)).toBe(true);
  });

  it('commits nothing once the activity is cancelled, even with a passing verdict', async () => {
    const attempt = await claimedAttempt();
    await writeFiles(attempt.worktreePath, { 'calc.py': fixedSub });
    const controller = new AbortController();
    controller.abort(new Error('attempt cancelled'));

    await expect(
      testThenCommit({ ...attempt.input([]), runTests: () => attempt.run(undefined), signal: controller.signal }),
    ).rejects.toThrow('attempt cancelled');
    expect(attempt.commits()).toBe(0);
    expect(existsSync(attempt.worktreePath)).toBe(true);
  });
});

/** A claimed worktree of a repository holding calc.py (add, sub) and its tests, and the activity's steps on it. */
async function claimedAttempt() {
  const project = await makePythonProject(tests, dirs);
  const repoPath = await makeRepo({ 'calc.py': brokenSub, ...tests });
  dirs.push(repoPath);
  const claim = await createWorktree({
    repoPath,
    workDir: project.root,
    baseRef: 'main',
    taskId: 't1',
    workflowId: 'wf-1',
    attempt: 1,
  });
  let testRuns = 0;
  let commits = 0;
  const stateDir = path.join(project.root, 'state');
  const run = (signal: AbortSignal | undefined) => {
    testRuns += 1;
    return runTests({
      ...project,
      worktreePath: claim.worktreePath,
      testEnv: { PYTHONPATH: claim.worktreePath },
      pathPolicy: { baseSha: claim.baseSha, allowedPaths: [], allowTestEdits: false },
      review: { secretValues: [], artifactDir: project.artifactDir, hostId: 'host-test', sandbox: project.sandbox },
      signal,
    });
  };
  const input = (acceptanceTests: string[]) => ({
    runTests: () => run(undefined),
    acceptanceTests,
    stateDir,
    commit: () =>
      commitThenRemove({
        commit: () => {
          commits += 1;
          return commitWorktree({
            workflowId: 'wf-1',
            attempt: 1,
            worktreePath: claim.worktreePath,
            branch: claim.branch,
            message: 'fix sub',
            staged: true,
          });
        },
        stateDir,
        removal: { repoPath, worktreePath: claim.worktreePath },
      }),
  });
  return {
    repoPath,
    worktreePath: claim.worktreePath,
    input,
    run,
    testRuns: () => testRuns,
    commits: () => commits,
  };
}
