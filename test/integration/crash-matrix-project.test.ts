// The crash matrix, part 3: a project whose child tasks are running when its worker's whole process group is
// killed; after a restart every task completes with one commit, and nothing is left behind.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlannedTask, ProjectPlan } from '../../domain/project/plan.js';
import { parseTaskSpec } from '../../domain/task-spec.js';
import { startProject } from '../../client/projects/start-project.js';
import { stateQuery } from '../../workflows/messages.js';
import { calcFiles, fixTurns } from '../support/calc-project.js';
import { killWorker, leftoverProcesses, spawnWorker, stopWorker, type WorkerProcess } from '../support/crash.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { recordRecovery, recoveries, TEST_HEARTBEAT_TIMEOUT_MS } from './support/crash-run.js';
import { git, readEvents, taskloopCommits } from './support/tasks.js';
import { eventually, uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';

const slowFiles = { ...calcFiles, 'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(4)\n' };

describe('a worker crash while a project has children running', () => {
  const t = useTestClient();
  afterAll(() => console.log(recoveries.join('\n')));

  it('completes every task after a process-group kill and a restart, one commit each, nothing left', async () => {
    const repo = await makeRepo(slowFiles);
    const dir = await makeTempDir();
    const project = uniqueId('crashp');
    const ids = ['a', 'b'];
    const tasks: PlannedTask[] = [];
    for (const id of ids) {
      const scriptFile = path.join(dir, `${id}.json`);
      await writeFile(scriptFile, JSON.stringify({ coder: fixTurns() }));
      const spec = parseTaskSpec({
        id,
        project,
        repo,
        goal: `Fix add in calc.py (${id})`,
        maxRetries: 0,
        models: { coder: `scripted:${scriptFile}` },
        heartbeatTimeoutMs: TEST_HEARTBEAT_TIMEOUT_MS,
      });
      if (!spec.success) throw new Error(spec.error);
      tasks.push({ spec: spec.data, milestone: 'm1', feature: 'f1', dependsOn: [] });
    }
    const plan: ProjectPlan = {
      project,
      repo,
      concurrency: 2,
      milestones: [{ id: 'm1', features: [{ id: 'f1', taskIds: ids }] }],
      tasks,
    };
    const env = await workerProcessEnv(uniqueId('crash-project'));
    let worker: WorkerProcess | undefined = await spawnWorker(env);
    try {
      const { handle } = await startProject(t.client, plan, { taskQueue: env.TASKLOOP_TASK_QUEUE ?? '' });
      // Kill once a child is in its tests.
      await eventually(
        'a child task testing',
        async () => {
          for (const id of ids) {
            const state = await t.client.workflow
              .getHandle(`task-${project}-${id}`)
              .query(stateQuery)
              .catch(() => undefined);
            if (state?.phase === 'test') return true;
          }
          return undefined;
        },
        120_000,
      );
      const killed = await killWorker(worker, 'group');
      const killedAt = Date.now();
      worker = await spawnWorker(env);
      const report = await handle.result();
      recordRecovery('project with children running (group kill)', (Date.now() - killedAt) / 1000);
      expect(report.counts.COMPLETED).toBe(2);
      for (const id of ids) expect(await taskloopCommits(repo, `taskloop/${id}`)).toHaveLength(1);
      expect(
        (await git(repo, 'worktree', 'list', '--porcelain')).split('\n').filter((line) => line.startsWith('worktree ')),
      ).toHaveLength(1);
      const workDir = env.TASKLOOP_WORK_DIR ?? '?';
      expect(await readdir(path.join(workDir, 'worktrees')).catch(() => [])).toEqual([]);
      expect(await leftoverProcesses(killed, workDir)).toEqual([]);
      const eventIds = (await readEvents(env.TASKLOOP_EVENTS_FILE ?? '?')).map((event) => event.id);
      expect(eventIds.filter((id, index) => eventIds.indexOf(id) !== index)).toEqual([]);
    } finally {
      if (worker) await stopWorker(worker);
    }
  }, 240_000);
});
