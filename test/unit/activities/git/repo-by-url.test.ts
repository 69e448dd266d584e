import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import { simpleGit } from 'simple-git';
import { afterEach, describe, expect, it } from 'vitest';
import { commitWorktree } from '../../../../activities/git/commit-worktree.js';
import { pushBranch } from '../../../../activities/git/push-branch.js';
import { createTaskActivities } from '../../../../activities/task-activities.js';
import { makeRepo, makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

/** A bare repository (the remote) holding one commit on main, and its file:// URL. */
async function makeRemote() {
  const source = await makeRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
  const parent = await makeTempDir();
  dirs.push(source, parent);
  const remote = path.join(parent, 'calc.git');
  await simpleGit().raw(['clone', '--bare', '--quiet', source, remote]);
  return { source, remote, url: `file://${remote}` };
}

async function makeHost(name: string) {
  const workDir = await makeTempDir();
  dirs.push(workDir);
  return createTaskActivities({
    hostId: name,
    hostQueue: `taskloop-host-${name}`,
    workDir,
    eventsFile: path.join(workDir, 'events.jsonl'),
  });
}

const env = new MockActivityEnvironment();
const run = <A, R>(activity: (input: A) => Promise<R>, input: A): Promise<R> => env.run(activity, input) as Promise<R>;
const remoteSha = async (remote: string, ref: string) =>
  (
    await simpleGit(remote)
      .raw(['rev-parse', '--verify', '--quiet', ref])
      .catch(() => '')
  ).trim();

describe('repositories by URL', () => {
  it('claims from a fetched base on each host, commits, pushes the branch once and names the remote', async () => {
    const { remote, url } = await makeRemote();
    const [hostA, hostB] = [await makeHost('a'), await makeHost('b')];
    const claimA = await run(hostA.claimWorktree, {
      workflowId: 'task-p-t1',
      attempt: 1,
      taskId: 't1',
      repoPath: url,
      baseRef: 'main',
    });
    await writeFiles(claimA.worktreePath, { 'calc.py': 'def add(a, b):\n    return a + b\n' });
    const commit = await run(hostA.commitWorktree, {
      workflowId: 'task-p-t1',
      attempt: 1,
      worktreePath: claimA.worktreePath,
      branch: claimA.branch,
      message: 'fix add',
    });
    const retried = await run(hostA.commitWorktree, {
      workflowId: 'task-p-t1',
      attempt: 1,
      worktreePath: claimA.worktreePath,
      branch: claimA.branch,
      message: 'fix add',
    });

    expect(commit).toMatchObject({ branch: 'taskloop/t1', created: true, remote: url });
    expect(retried).toEqual({ ...commit, created: false });
    expect(await remoteSha(remote, 'refs/heads/taskloop/t1')).toBe(commit.sha);
    expect(await run(hostA.removeWorktree, { repoPath: url, worktreePath: claimA.worktreePath })).toEqual({
      removed: true,
      wasClean: true,
    });

    // The remote's main moves on; host B's claim fetches it (a fetch per claim, not a stale clone).
    const pusher = await makeTempDir();
    dirs.push(pusher);
    await simpleGit().raw(['clone', '--quiet', remote, pusher]);
    await writeFile(path.join(pusher, 'later.txt'), 'later\n');
    await simpleGit(pusher).raw(['add', 'later.txt']);
    await simpleGit(pusher).raw(['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'later']);
    await simpleGit(pusher).raw(['push', '--quiet', 'origin', 'main']);
    const claimB = await run(hostB.claimWorktree, {
      workflowId: 'task-p-t2',
      attempt: 1,
      taskId: 't2',
      repoPath: url,
      baseRef: 'main',
    });
    expect(claimB.baseSha).toBe(await remoteSha(remote, 'refs/heads/main'));
    expect(path.relative(claimA.worktreePath, claimB.worktreePath).startsWith('..')).toBe(true);
  });

  it('commits on the next free name when another host already pushed taskloop/<id>, leaving that branch as it was', async () => {
    const { remote, url } = await makeRemote();
    const host = await makeHost('a');
    const claim = await claimT1(host, url);
    const other = await pushOtherCommit(remote, 'refs/heads/taskloop/t1');
    await writeFiles(claim.worktreePath, { 'calc.py': 'def add(a, b):\n    return a + b\n' });

    const commit = await run(host.commitWorktree, commitT1(claim));
    const retried = await run(host.commitWorktree, commitT1(claim));

    expect(commit).toMatchObject({ branch: 'taskloop/t1-run2', created: true, remote: url });
    expect(retried).toEqual({ ...commit, created: false });
    expect(await remoteSha(remote, 'refs/heads/taskloop/t1')).toBe(other);
    expect(await remoteSha(remote, 'refs/heads/taskloop/t1-run2')).toBe(commit.sha);
  });

  it("fails a push that loses the race for its branch with PushRejected, and keeps the commit in the host's clone", async () => {
    const { remote, url } = await makeRemote();
    const host = await makeHost('a');
    const claim = await claimT1(host, url);
    await writeFiles(claim.worktreePath, { 'calc.py': 'def add(a, b):\n    return a + b\n' });
    // The commit picks taskloop/t1 (free on the remote then); another host's push lands there before ours.
    const commit = await commitWorktree(commitT1(claim));
    expect(commit.branch).toBe('taskloop/t1');
    const other = await pushOtherCommit(remote, 'refs/heads/taskloop/t1');

    const failure = pushBranch({ worktreePath: claim.worktreePath, branch: commit.branch, sha: commit.sha });

    await expect(failure).rejects.toMatchObject({
      type: 'PushRejected',
      nonRetryable: true,
      message: expect.stringMatching(/taskloop\/t1.*rejected \((fetch first|non-fast-forward)/),
    });
    expect(await remoteSha(remote, 'refs/heads/taskloop/t1')).toBe(other);
    const kept = (await simpleGit(claim.worktreePath).raw(['rev-parse', 'refs/heads/taskloop/t1'])).trim();
    expect(kept).toBe(commit.sha);
    expect(await simpleGit(claim.worktreePath).raw(['log', '-1', '--format=%B', kept])).toContain(
      'Taskloop-Run: task-p-t1/1',
    );
  });
});

type Host = Awaited<ReturnType<typeof makeHost>>;

const claimT1 = (host: Host, url: string) =>
  run(host.claimWorktree, { workflowId: 'task-p-t1', attempt: 1, taskId: 't1', repoPath: url, baseRef: 'main' });

const commitT1 = (claim: { worktreePath: string; branch: string }) => ({
  workflowId: 'task-p-t1',
  attempt: 1,
  worktreePath: claim.worktreePath,
  branch: claim.branch,
  message: 'fix add',
});

/** Another host's commit on top of the remote's main, put on `ref` of the remote; returns its sha. */
async function pushOtherCommit(remote: string, ref: string): Promise<string> {
  const main = await remoteSha(remote, 'refs/heads/main');
  const tree = (await simpleGit(remote).raw(['rev-parse', `${main}^{tree}`])).trim();
  const other = (
    await simpleGit(remote).raw([
      '-c',
      'user.name=o',
      '-c',
      'user.email=o@e',
      'commit-tree',
      tree,
      '-p',
      main,
      '-m',
      'other',
    ])
  ).trim();
  await simpleGit(remote).raw(['update-ref', ref, other]);
  return other;
}
