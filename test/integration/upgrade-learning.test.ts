// Upgrades keep learning: a skill learned while version A served is offered by version B after A's workers stop,
// because the learning workflow follows the current version (auto-upgrade) instead of staying pinned to A; it goes
// on learning on B, and version A drains.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { skillId } from '../../domain/learning/skills.js';
import { learningQuery, learningWorkflowId } from '../../workflows/learning/messages.js';
import { fixTurns, type ScriptTurn } from '../support/calc-project.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { meanFiles, wrongMean } from './support/mean-project.js';
import { startTestTask, taskOutcome, taskSpec } from './support/tasks.js';
import { eventually, uniqueId, useTestClient } from './support/temporal.js';
import { startVersion, type RunningVersion } from './support/versions.js';
import { resolveTemporalTarget } from '../../platform/connection.js';
import { letLongLivedWorkflowsFollow } from '../../workers/deployment.js';

const LONG_TEST_MS = 300_000;
const goal = (n: number) => `Fix calc.mean returning the wrong average (case ${n})`;
/** temporal.api.enums.v1.VersioningBehavior */
const AUTO_UPGRADE = 2;

describe('upgrading workers keeps what the project learned', () => {
  const t = useTestClient();
  const versions: RunningVersion[] = [];
  const learningWorkflows: string[] = [];
  afterAll(async () => {
    for (const id of learningWorkflows)
      await t.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
    for (const version of versions.reverse()) await version.stop();
  });

  it(
    'a skill learned on version A is offered on version B once A has stopped; the learning workflow moved to B and A drained',
    async () => {
      const queue = uniqueId('upgrade-learning');
      const deploymentName = uniqueId('taskloop-learning');
      const bundle = { codePath: inject('workflowBundlePath') };
      const project = uniqueId('upgraded');
      const learningId = learningWorkflowId(project, 'coder');
      learningWorkflows.push(learningId);
      const repo = await makeRepo(meanFiles);
      const scripts = await makeTempDir();
      const run = async (n: number, coder: ScriptTurn[], extra: Partial<Parameters<typeof taskSpec>[0]> = {}) => {
        const scriptFile = path.join(scripts, `mean-${n}.json`);
        await writeFile(scriptFile, JSON.stringify({ coder }));
        const spec = taskSpec({
          id: `mean-${n}`,
          project,
          repo,
          goal: goal(n),
          maxRetries: 0,
          models: { coder: `scripted:${scriptFile}` },
          ...extra,
        });
        return taskOutcome(await startTestTask(t.client, queue, spec));
      };

      const a = await startVersion(queue, deploymentName, 'A', bundle);
      versions.push(a);
      expect(a.current).toBe(true);
      expect([(await run(1, wrongMean())).status, (await run(2, wrongMean())).status]).toEqual(['FAILED', 'FAILED']);
      const learning = t.client.workflow.getHandle(learningId);
      const id = skillId('wrong_constant', goal(1));
      await eventually('the skill learned on version A', async () => {
        const learned = await learning.query(learningQuery).catch(() => undefined);
        return learned?.skills.some((skill) => skill.id === id) ? true : undefined;
      });

      const b = await startVersion(queue, deploymentName, 'B', bundle);
      versions.push(b);
      expect(b.current).toBe(true);
      await a.stop();

      // Later tasks fix add; mean stays wrong, so only calc's tests decide.
      const later = await run(3, fixTurns(), { testCommand: ['python3', '-m', 'pytest', '-q', 'tests/test_calc.py'] });
      expect([later.status, later.attempts[0]?.hostId, later.attempts[0]?.coder?.skillsOffered]).toEqual([
        'COMPLETED',
        b.hostId,
        [id],
      ]);

      // The learning workflow follows upgrades: the read above was answered by B, and the next failure it handles runs
      // on B (a pinned one would wait for A's workers forever).
      expect((await learning.describe()).raw.workflowExecutionInfo?.versioningInfo?.behavior).toBe(AUTO_UPGRADE);
      expect((await run(4, wrongMean())).status).toBe('FAILED');
      await eventually('the failure after the upgrade in what the project learned', async () => {
        const learned = await learning.query(learningQuery);
        return learned.history.some((record) => record.taskId === 'mean-4') ? true : undefined;
      });
      const info = (await learning.describe()).raw.workflowExecutionInfo?.versioningInfo;
      expect([info?.deploymentVersion?.buildId, info?.behavior]).toEqual(['B', AUTO_UPGRADE]);

      // Only pinned workflows hold a version: with the tasks on A ended, A drains.
      const service = t.client.workflowService;
      const drained = await eventually(
        'version A drained',
        async () => {
          const described = await service.describeWorkerDeploymentVersion({
            namespace: 'default',
            deploymentVersion: { deploymentName, buildId: 'A' },
          });
          const status = described.workerDeploymentVersionInfo?.drainageInfo?.status;
          return status === 2 ? status : undefined;
        },
        60_000,
      );
      expect(drained).toBe(2);
    },
    LONG_TEST_MS,
  );

  it('a learning workflow an earlier release pinned to A follows upgrades once a version lets it: B answers after A stops', async () => {
    const queue = uniqueId('upgrade-pinned');
    const deploymentName = uniqueId('taskloop-pinned');
    const bundle = { codePath: inject('workflowBundlePath') };
    const project = uniqueId('pinned');
    const workflowId = learningWorkflowId(project, 'coder');
    learningWorkflows.push(workflowId);
    const a = await startVersion(queue, deploymentName, 'A', bundle);
    versions.push(a);
    // As a release before this one left it: pinned to the version that started it.
    // (The server may take a moment to see version A on the queue before it accepts a start pinned to it.)
    const learning = await eventually('a start pinned to A', () =>
      t.client.workflow
        .start('learningWorkflow', {
          taskQueue: queue,
          workflowId,
          args: [{ project, role: 'coder', learning: { enabled: true, roles: ['coder'] } }],
          versioningOverride: { pinnedTo: { deploymentName, buildId: 'A' } },
        })
        .catch((error: Error) => {
          if (String(error.cause ?? error).includes('is not present in task queue')) return undefined;
          throw error;
        }),
    );
    await eventually('the learning workflow running on A', async () =>
      (await learning.query(learningQuery).catch(() => undefined)) ? true : undefined,
    );
    const b = await startVersion(queue, deploymentName, 'B', bundle);
    versions.push(b);
    await a.stop();

    const target = resolveTemporalTarget({
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_CONFIG_FILE: '/nonexistent/temporal.toml',
    });
    // What every versioned worker does at its start (visibility needs a moment to list the workflow).
    await eventually('the pinned learning workflow let follow', async () =>
      (await letLongLivedWorkflowsFollow(target, queue)) > 0 ? true : undefined,
    );
    const learned = await eventually('an answer from version B', async () =>
      learning.query(learningQuery).catch(() => undefined),
    );
    expect(learned.skills).toEqual([]);
    expect(await letLongLivedWorkflowsFollow(target, queue)).toBe(0);
  });
});
