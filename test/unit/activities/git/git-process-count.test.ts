import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { diffWorktree } from '../../../../activities/git/diff-worktree.js';
import { removeWorktree } from '../../../../activities/git/remove-worktree.js';
import { makeRepo, makeTempDir, removeDirs } from '../../../support/git-repo.js';
import { tracedGitCommands } from '../../../support/git-trace.js';

const dirs: string[] = [];
afterEach(() => {
  delete process.env.GIT_TRACE;
  return removeDirs(dirs);
});

/** Git processes started while `step` runs, counted from GIT_TRACE. */
async function countGitProcesses(traceFile: string, step: () => Promise<unknown>): Promise<number> {
  return (await tracedGitCommands(traceFile, step)).length;
}

describe('git processes per attempt', () => {
  it('claim, review diff, commit and removal of one passing attempt start at most 9 git processes', async () => {
    const repoPath = await makeRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
    const workDir = await makeTempDir();
    dirs.push(repoPath, workDir);
    const traceFile = path.join(workDir, 'git-trace.log');

    const count = await countGitProcesses(traceFile, async () => {
      const claim = await createWorktree({
        repoPath,
        workDir,
        baseRef: 'main',
        taskId: 't1',
        workflowId: 'wf-1',
        attempt: 1,
      });
      await writeFile(path.join(claim.worktreePath, 'calc.py'), 'def add(a, b):\n    return a + b\n');
      const diff = await diffWorktree({ worktreePath: claim.worktreePath, baseSha: claim.baseSha });
      expect(diff.changedFiles).toEqual(['calc.py']);
      await commitWorktree({
        worktreePath: claim.worktreePath,
        branch: claim.branch,
        workflowId: 'wf-1',
        attempt: 1,
        message: 'fix add',
        staged: true,
      });
      await removeWorktree({ repoPath, worktreePath: claim.worktreePath });
    });

    // Measured: 9 (claim 3: `git worktree add` and its children update-ref and reset, review 2: add and one diff with
    // its numstat, commit 2, removal 1 + its status); 7 with a hand-written registry entry, whose saving on a whole
    // attempt stayed within noise (docs/architecture.md); before: 30.
    expect(count).toBeLessThanOrEqual(9);
  });
});
