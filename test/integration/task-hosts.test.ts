import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskOutcome } from '../../domain/task-state.js';
import { calcFiles, fixTurns, makeCalcProject } from '../support/calc-project.js';
import { crashAndRestartWorker, startWorkerProcess } from '../support/cli.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { pythonProcessesIn } from '../support/crash.js';
import { gatedTest, releaseGate } from '../support/test-gate.js';
import { TEST_HEARTBEAT_TIMEOUT_MS, TEST_HOST_LOST_AFTER_MS } from './support/crash-run.js';
import { eventually, startTestWorkers, uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';
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
    // The tests wait at a gate, released after the kill: the kill surely lands during the test run, before any commit.
    const repo = await makeRepo({ ...calcFiles, ...gatedTest() });
    const scriptFile = path.join(await makeTempDir(), 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: fixTurns() }));

    const { child: first } = await startWorkerProcess(env);
    const spec = taskSpec({
      repo,
      goal: 'Fix add',
      models: { coder: `scripted:${scriptFile}` },
      heartbeatTimeoutMs: TEST_HEARTBEAT_TIMEOUT_MS,
    });
    const handle = await startTestTask(t.client, taskQueue, spec);
    await pytestRunningIn(env.TASKLOOP_WORK_DIR ?? '?');
    expect(await taskloopCommits(repo, `taskloop/${spec.id}`).catch(() => [])).toEqual([]);
    const { child: second } = await crashAndRestartWorker(first, env);
    await releaseGate(repo);
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
    // The first host's tests wait at a gate, released once it is dead: it is surely killed mid-test.
    const repo = await makeRepo({ ...calcFiles, ...gatedTest() });
    const scriptFile = path.join(await makeTempDir(), 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: [...fixTurns(), ...fixTurns()] }));

    const doomedEnv = await workerProcessEnv(taskQueue);
    const { child: doomed } = await startWorkerProcess(doomedEnv);
    // Short timeouts: the kill is noticed in seconds, not after Temporal's 20 s + 45 s defaults.
    const spec = taskSpec({
      repo,
      goal: 'Fix add',
      models: { coder: `scripted:${scriptFile}` },
      heartbeatTimeoutMs: TEST_HEARTBEAT_TIMEOUT_MS,
      hostLostAfterMs: TEST_HOST_LOST_AFTER_MS,
    });
    const handle = await startTestTask(t.client, taskQueue, spec);
    await pytestRunningIn(doomedEnv.TASKLOOP_WORK_DIR ?? '?');
    const testing = await waitForState(handle, 'the first attempt on its host', (state) => !!state.attempts[0]?.hostId);
    const killedAt = Date.now();
    doomed.kill('SIGKILL');
    await doomed.catch(() => undefined);
    await releaseGate(repo);
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

/** Waits until a pytest process runs in a worktree under `workDir` (a worker's work folder). */
async function pytestRunningIn(workDir: string): Promise<void> {
  await eventually(
    `pytest running under ${workDir}`,
    async () => ((await pythonProcessesIn(workDir)).some((row) => row.cmdline.includes('pytest')) ? true : undefined),
    90_000,
  );
}
