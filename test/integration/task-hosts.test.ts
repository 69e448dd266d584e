import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskOutcome } from '../../domain/task-state.js';
import { calcFiles, fixTurns, makeCalcProject } from '../support/calc-project.js';
import { crashAndRestartWorker, startWorkerProcess } from '../support/cli.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { startTestWorkers, uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';
import { startTestTask, taskloopCommits, taskSpec, waitForState } from './support/tasks.js';

describe('workers as separate hosts', () => {
  const t = useTestClient();

  it('runs every worktree-bound activity of an attempt on the worker that created the worktree', async () => {
    const taskQueue = uniqueId('two-hosts');
    const hosts = [
      await startTestWorkers({ taskQueue, hostId: uniqueId('host-a') }),
      await startTestWorkers({ taskQueue, hostId: uniqueId('host-b') }),
    ];
    try {
      const outcomes: TaskOutcome[] = [];
      const claimedBy = () => new Set(outcomes.flatMap((outcome) => outcome.attempts.map((attempt) => attempt.hostId)));
      for (let round = 0; round < 4 && claimedBy().size < 2; round++) {
        const started = await Promise.all(
          [1, 2, 3].map(async () => {
            const project = await makeCalcProject({ coder: fixTurns() });
            return startTestTask(
              t.client,
              taskQueue,
              taskSpec({ repo: project.repo, goal: 'Fix add', models: { coder: `scripted:${project.scriptFile}` } }),
            );
          }),
        );
        outcomes.push(...(await Promise.all(started.map((handle) => handle.result()))));
      }
      expect([...claimedBy()].sort()).toEqual(hosts.map((host) => host.hostId).sort());
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('COMPLETED');
        for (const attempt of outcome.attempts) {
          const host = hosts.find((candidate) => candidate.hostId === attempt.hostId);
          expect(attempt.coder?.transcript).toMatchObject({ hostId: attempt.hostId });
          expect(attempt.coder?.transcript?.path.startsWith(host?.workDir ?? '?')).toBe(true);
          expect(attempt.test?.log).toMatchObject({ hostId: attempt.hostId });
          expect(attempt.review?.diff).toMatchObject({ hostId: attempt.hostId });
        }
      }
    } finally {
      await Promise.all(hosts.map((host) => host.stop()));
    }
  });

  it('finishes the task after the worker is killed with SIGKILL during the test run, with exactly one commit', async () => {
    const taskQueue = uniqueId('sigkill');
    const env = await workerProcessEnv(taskQueue);
    const repo = await makeRepo({
      ...calcFiles,
      'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(4)\n',
    });
    const scriptFile = path.join(await makeTempDir(), 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: fixTurns() }));

    const { child: first } = await startWorkerProcess(env);
    const spec = taskSpec({ repo, goal: 'Fix add', models: { coder: `scripted:${scriptFile}` } });
    const handle = await startTestTask(t.client, taskQueue, spec);
    await waitForState(handle, 'the test node', (state) => state.phase === 'test');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { child: second } = await crashAndRestartWorker(first, env);
    try {
      const outcome = await handle.result();
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts).toHaveLength(1);
      expect(await taskloopCommits(repo, `taskloop/${spec.id}`)).toHaveLength(1);
    } finally {
      second.kill('SIGTERM');
      await second.catch(() => undefined);
    }
  }, 150_000);

  it('moves the attempt to a live host when its host is killed mid-test and never comes back', async () => {
    const taskQueue = uniqueId('lost-host');
    const repo = await makeRepo({
      ...calcFiles,
      'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(15)\n',
    });
    const scriptFile = path.join(await makeTempDir(), 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: [...fixTurns(), ...fixTurns()] }));

    const { child: doomed } = await startWorkerProcess(await workerProcessEnv(taskQueue));
    const spec = taskSpec({ repo, goal: 'Fix add', models: { coder: `scripted:${scriptFile}` } });
    const handle = await startTestTask(t.client, taskQueue, spec);
    const testing = await waitForState(handle, 'the test node', (state) => state.phase === 'test');
    const killedAt = Date.now();
    doomed.kill('SIGKILL');
    await doomed.catch(() => undefined);
    const { child: survivor } = await startWorkerProcess(await workerProcessEnv(taskQueue));
    try {
      const outcome = await handle.result();
      console.log(`lost host: task finished ${Math.round((Date.now() - killedAt) / 1000)} s after its host was killed`);
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['HOST_LOST', 'PASSED']);
      expect(outcome.attempts[0]).toMatchObject({
        hostId: testing.attempts[0]?.hostId,
        failure: { failureClass: 'environment_problem', cause: { kind: 'HostLost' } },
      });
      expect(outcome.attempts[1]?.hostId).not.toBe(testing.attempts[0]?.hostId);
      expect(await taskloopCommits(repo, `taskloop/${spec.id}`)).toHaveLength(1);
    } finally {
      survivor.kill('SIGTERM');
      await survivor.catch(() => undefined);
    }
  }, 300_000);
});
