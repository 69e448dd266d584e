import { execa, type ResultPromise } from 'execa';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skillId } from '../../domain/learning/skills.js';
import type { TaskOutcome } from '../../domain/task-state.js';
import { learningQuery, learningWorkflowId } from '../../workflows/learning/messages.js';
import { fixTurns, type ScriptTurn } from '../support/calc-project.js';
import { startWorkerProcess } from '../support/cli.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { meanFiles, wrongMean } from './support/mean-project.js';
import { git, startTestTask, taskOutcome, taskSpec } from './support/tasks.js';
import { eventually, uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';

const LONG_TEST_MS = 300_000;
const goal = (n: number) => `Fix calc.mean returning the wrong average (case ${n})`;

/** A bare repository holding the mean project: the only place both hosts share. */
async function makeRemote(): Promise<string> {
  const remote = path.join(await makeTempDir(), 'mean.git');
  await execa('git', ['clone', '--bare', '--quiet', await makeRepo(meanFiles), remote]);
  return remote;
}

/** Another host's commit on the remote's branch `name` (a child of main); returns its sha. */
async function pushForeignBranch(remote: string, name: string): Promise<string> {
  const tree = (await git(remote, 'rev-parse', 'main^{tree}')).trim();
  const sha = (
    await git(
      remote,
      '-c',
      'user.name=o',
      '-c',
      'user.email=o@e',
      'commit-tree',
      tree,
      '-p',
      'main',
      '-m',
      'other host',
    )
  ).trim();
  await git(remote, 'update-ref', `refs/heads/${name}`, sha);
  return sha;
}

/** One `taskloop worker` process at a time: a host that stops and later starts again keeps its id and work folder. */
function hosts(envs: Record<'a' | 'b', NodeJS.ProcessEnv>) {
  let running: ResultPromise | undefined;
  return {
    async only(name: 'a' | 'b') {
      await this.stop();
      running = (await startWorkerProcess(envs[name])).child;
    },
    async stop() {
      running?.kill('SIGTERM');
      await running?.catch(() => undefined);
      running = undefined;
    },
  };
}

describe('one learning workflow for all hosts', () => {
  const t = useTestClient();
  const learningWorkflows: string[] = [];
  afterAll(async () => {
    for (const id of learningWorkflows)
      await t.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
  });

  it(
    'failures on host A and host B make one skill naming both hosts, offered to the next similar task on either host; a branch another host pushed is left alone',
    async () => {
      const remote = await makeRemote();
      const url = `file://${remote}`;
      const taskQueue = uniqueId('learning-hosts');
      const envs = { a: await workerProcessEnv(taskQueue), b: await workerProcessEnv(taskQueue) };
      const hostId = (name: 'a' | 'b') => envs[name].TASKLOOP_HOST_ID ?? '';
      const workDir = (name: 'a' | 'b') => envs[name].TASKLOOP_WORK_DIR ?? '';
      const project = uniqueId('learned');
      learningWorkflows.push(learningWorkflowId(project, 'coder'));
      const scripts = await makeTempDir();
      const run = async (n: number, coder: ScriptTurn[], extra: Partial<Parameters<typeof taskSpec>[0]> = {}) => {
        const scriptFile = path.join(scripts, `mean-${n}.json`);
        await writeFile(scriptFile, JSON.stringify({ coder }));
        const spec = taskSpec({
          id: `mean-${n}`,
          project,
          repo: url,
          goal: goal(n),
          maxRetries: 0,
          models: { coder: `scripted:${scriptFile}` },
          ...extra,
        });
        return taskOutcome(await startTestTask(t.client, taskQueue, spec));
      };
      // Later tasks fix add; mean stays wrong, so only calc's tests decide.
      const passing = { testCommand: ['python3', '-m', 'pytest', '-q', 'tests/test_calc.py'] };
      const on = hosts(envs);
      try {
        await on.only('a');
        const first = await run(1, wrongMean());
        await on.only('b');
        const second = await run(2, wrongMean());
        expect([first, second].map((outcome) => [outcome.status, outcome.attempts[0]?.hostId])).toEqual([
          ['FAILED', hostId('a')],
          ['FAILED', hostId('b')],
        ]);

        const learned = await eventually('the skill in what the project learned', async () => {
          const found = await t.client.workflow
            .getHandle(learningWorkflowId(project, 'coder'))
            .query(learningQuery)
            .catch(() => undefined);
          return found?.skills.length ? found : undefined;
        });
        const id = skillId('wrong_constant', goal(1));
        expect(learned.skills).toEqual([
          expect.objectContaining({
            id,
            writtenBy: 'distilled',
            sourceTaskIds: ['mean-1', 'mean-2'],
            hosts: [hostId('a'), hostId('b')],
          }),
        ]);
        expect(learned.history.map((record) => [record.taskId, record.host])).toEqual([
          ['mean-1', hostId('a')],
          ['mean-2', hostId('b')],
        ]);

        const third = await run(3, fixTurns(), passing);
        await on.only('a');
        const foreign = await pushForeignBranch(remote, 'taskloop/mean-4');
        const fourth = await run(4, fixTurns(), passing);
        const offered = (outcome: TaskOutcome) => [
          outcome.status,
          outcome.attempts[0]?.hostId,
          outcome.attempts[0]?.coder?.skillsOffered,
        ];
        expect(offered(third)).toEqual(['COMPLETED', hostId('b'), [id]]);
        expect(offered(fourth)).toEqual(['COMPLETED', hostId('a'), [id]]);
        // The history of both hosts' failures reaches the adaptations too.
        expect(fourth.attempts[0]?.adaptations).toEqual([
          expect.objectContaining({ strategy: 'prioritize_constants', source: 'history' }),
        ]);
        // Host A offered the skill with no file of it: the mirror was written by host B, which wrote the skill.
        expect(await readdir(path.join(workDir('b'), 'skills', project))).toEqual([`${id}.md`]);
        expect(await readdir(path.join(workDir('a'), 'skills')).catch(() => [])).toEqual([]);

        expect(fourth.commit).toMatchObject({ branch: 'taskloop/mean-4-run2', remote: url });
        expect((await git(remote, 'rev-parse', 'taskloop/mean-4')).trim()).toBe(foreign);
        expect((await git(remote, 'rev-parse', 'taskloop/mean-4-run2')).trim()).toBe(fourth.commit?.sha);
      } finally {
        await on.stop();
      }
    },
    LONG_TEST_MS,
  );
});
