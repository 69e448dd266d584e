import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskActivities } from '../../../../activities/task-activities.js';
import { makeRepo, makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const claims = 100;

describe('claimWorktree under concurrency', () => {
  it(`${claims} concurrent claims and then removals on one repository give no git error`, async () => {
    const repoPath = await makeRepo();
    const workDir = await makeTempDir();
    dirs.push(repoPath, workDir);
    const activities = createTaskActivities({
      hostId: 'h1',
      hostQueue: 'taskloop-host-h1',
      workDir,
      eventsFile: path.join(workDir, 'events.jsonl'),
    });
    const env = new MockActivityEnvironment();

    const claimed = await Promise.allSettled(
      Array.from({ length: claims }, (_, i) =>
        env.run(activities.claimWorktree, {
          workflowId: `task-p-t${i}`,
          attempt: 1,
          taskId: `t${i}`,
          repoPath,
          baseRef: 'main',
        }),
      ),
    );
    const claimErrors = claimed.filter((result) => result.status === 'rejected');
    expect(claimErrors.map((result) => String((result as PromiseRejectedResult).reason))).toEqual([]);
    const list = await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain']);
    expect(list.split('\n').filter((line) => line.startsWith('worktree ')).length).toBe(claims + 1);

    const worktrees = claimed.map(
      (result) => (result as PromiseFulfilledResult<{ worktreePath: string }>).value.worktreePath,
    );
    const removed = await Promise.allSettled(
      worktrees.map((worktreePath) => env.run(activities.removeWorktree, { repoPath, worktreePath })),
    );
    expect(
      removed
        .filter((result) => result.status === 'rejected')
        .map((result) => String((result as PromiseRejectedResult).reason)),
    ).toEqual([]);
    const after = await simpleGit(repoPath).raw(['worktree', 'list', '--porcelain']);
    expect(after.split('\n').filter((line) => line.startsWith('worktree ')).length).toBe(1);
  }, 120_000);
});
