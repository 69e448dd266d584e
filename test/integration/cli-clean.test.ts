import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { describe, expect, inject, it } from 'vitest';
import { signalFailure } from '../../activities/learning/signal-failure.js';
import { learningQuery, learningWorkflowId } from '../../workflows/learning/messages.js';
import type { LearningWorkflowInput } from '../../workflows/learning/learning-workflow.js';
import { runTaskloop } from '../support/cli.js';
import { makeRepo } from '../support/git-repo.js';
import { eventually, uniqueId, useTestTemporal } from './support/temporal.js';

/** An artifact folder `<workDir>/artifacts/<name>/a1/log.txt`, last written `ageMs` ago. */
async function artifactFolder(workDir: string, name: string, ageMs: number): Promise<string> {
  const dir = path.join(workDir, 'artifacts', name);
  await mkdir(path.join(dir, 'a1'), { recursive: true });
  await writeFile(path.join(dir, 'a1', 'log.txt'), 'test output\n');
  const when = new Date(Date.now() - ageMs);
  for (const entry of [path.join(dir, 'a1', 'log.txt'), path.join(dir, 'a1'), dir]) await utimes(entry, when, when);
  return dir;
}

async function branches(repo: string): Promise<string[]> {
  const listing = await simpleGit(repo).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
  return listing.split('\n').filter(Boolean).sort();
}

describe('taskloop clean', () => {
  const t = useTestTemporal('cli-clean');

  it('removes empty taskloop branches, old artifacts and idle learning workflows; keeps unique commits, fresh artifacts; --dry-run changes nothing', async () => {
    const repo = await makeRepo();
    const git = simpleGit(repo);
    await git.raw(['branch', 'taskloop/empty', 'main']);
    await git.raw(['checkout', '-q', '-b', 'taskloop/kept']);
    await writeFile(path.join(repo, 'work.txt'), 'a commit only this branch holds\n');
    await git.raw(['add', '-A']);
    await git.raw(['commit', '-q', '-m', 'unique']);
    await git.raw(['checkout', '-q', 'main']);

    const workDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-clean-'));
    const oldFolder = await artifactFolder(workDir, 'task-old', 2 * 86_400_000);
    const freshFolder = await artifactFolder(workDir, 'task-fresh', 0);

    const project = uniqueId('clean');
    const learning: LearningWorkflowInput = {
      project,
      role: 'coder',
      skillsDir: path.join(workDir, 'skills'),
      learning: { enabled: true, roles: ['coder'] },
    };
    const handle = await t.client.workflow.start('learningWorkflow', {
      workflowId: learningWorkflowId(project, 'coder'),
      taskQueue: t.host.taskQueue,
      args: [learning],
    });

    const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TASKLOOP_WORK_DIR: workDir };
    const clean = (args: string[]) => runTaskloop(['clean', '--project', project, ...args], { env });

    const bad = await clean(['--older-than', 'soon']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--older-than');

    const dryRun = await clean(['--repo', repo, '--older-than', '1d', '--dry-run']);
    expect(dryRun.exitCode, dryRun.all).toBe(0);
    expect(dryRun.stdout).toContain('would remove branch taskloop/empty');
    expect(dryRun.stdout).toContain('keep branch taskloop/kept: holds a commit no other ref holds');
    expect(dryRun.stdout).toContain(`would remove artifacts ${oldFolder}`);
    expect(await branches(repo)).toEqual(['main', 'taskloop/empty', 'taskloop/kept']);
    expect(existsSync(oldFolder)).toBe(true);

    // --json: the acting commands' one shape; ids what would go, details.kept what stays and why.
    const dryJson = await clean(['--repo', repo, '--older-than', '1d', '--dry-run', '--json']);
    expect(dryJson.exitCode, dryJson.all).toBe(0);
    expect(JSON.parse(dryJson.stdout)).toEqual({
      command: 'clean --dry-run',
      asked: { repo, olderThan: '1d', project, dryRun: true },
      happened: 'would-remove',
      ids: ['taskloop/empty', oldFolder],
      details: { kept: [{ id: 'taskloop/kept', why: 'holds a commit no other ref holds' }] },
    });
    expect(await branches(repo)).toEqual(['main', 'taskloop/empty', 'taskloop/kept']);

    const real = await clean(['--repo', repo, '--older-than', '1d']);
    expect(real.exitCode, real.all).toBe(0);
    expect(await branches(repo)).toEqual(['main', 'taskloop/kept']);
    expect(existsSync(oldFolder)).toBe(false);
    expect(existsSync(freshFolder)).toBe(true);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    // With a zero age the just-started learning workflow is idle too: it is ended with a reason.
    const idle = await clean(['--older-than', '0']);
    expect(idle.exitCode, idle.all).toBe(0);
    expect(idle.stdout).toContain(`ended learning workflow ${handle.workflowId}`);
    expect((await handle.describe()).status.name).toBe('TERMINATED');
  });

  it('keeps an idle learning workflow that holds what the project learned', async () => {
    const project = uniqueId('clean-learned');
    const workflow = { project, role: 'coder', learning: { enabled: true, roles: ['coder'] } };
    const event = {
      workflowId: `task-${project}-a`,
      taskId: 'a',
      attempt: 1,
      description: 'Fix mean',
      failureClass: 'code_defect',
      pattern: 'wrong_constant',
    };
    const handle = await signalFailure(t.client, { taskQueue: t.host.taskQueue, workflow, event });
    await eventually('the failure in memory', async () => {
      const learned = await handle.query(learningQuery).catch(() => undefined);
      return learned?.history.length === 1 ? learned : undefined;
    });
    const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') };
    const clean = await runTaskloop(['clean', '--project', project, '--older-than', '0'], { env });
    expect(clean.exitCode, clean.all).toBe(0);
    expect(clean.stdout).toContain(
      `keep learning workflow ${handle.workflowId}: holds what the project learned (0 skills, 1 failures)`,
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await handle.terminate('test over');
  });
});
