import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { createWorktree } from '../../../../activities/git/create-worktree.js';
import { diffTree } from '../../../../activities/git/diff-worktree.js';
import { snapshotWorktree } from '../../../../activities/git/snapshot-tree.js';
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
  it('claim, review diff, commit and removal of one passing attempt start at most 13 git processes, none over the worktree', async () => {
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
      // The test node takes the change as a tree; the review diffs trees; the commit records the tree by id.
      const { worktreePath, baseSha } = claim;
      const snapshot = await snapshotWorktree({ worktreePath, baseSha });
      const diff = await diffTree({ worktreePath, baseSha, treeSha: snapshot.treeSha });
      expect(diff.changedFiles).toEqual(['calc.py']);
      await commitWorktree({
        worktreePath,
        branch: claim.branch,
        workflowId: 'wf-1',
        attempt: 1,
        message: 'fix add',
        treeSha: snapshot.treeSha,
      });
      await removeWorktree({ repoPath, worktreePath, committed: true });
    });
    // None has a work tree, and none is one that reads a work tree (status, add, diff over it, commit).
    const trace = await readFile(traceFile, 'utf8');
    expect(trace).not.toContain('--work-tree');
    const commands = [...trace.matchAll(/ trace: built-in: git (?:-c \S+ |--\S+ )*(\S+)/g)].map((m) => m[1]);
    expect(
      commands.filter((command) => ['status', 'add', 'commit', 'ls-files', 'grep'].includes(command ?? '')),
    ).toEqual([]);

    // Measured: 12 (claim 3: `git worktree add` and its children update-ref and reset; snapshot 4: ls-tree,
    // hash-object, update-index, write-tree; review 1: the diff of trees with its numstat; commit 4: the parent's tree,
    // commit-tree, update-ref of HEAD and of the branch; removal 0, without git). Before snapshots: 9, every one of
    // the review's and the commit's over the worktree; before that: 30.
    expect(count).toBeLessThanOrEqual(13);
  });
});
