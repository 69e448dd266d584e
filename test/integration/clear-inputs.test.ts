// A CLI without a payload key next to workers that hold one (issue 65, D18): it stops before it stores a goal in
// clear, and a task that reaches such a worker with its input in clear anyway fails at its claim, naming the fix.
import type { ResultPromise } from 'execa';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { runTaskloop, startWorkerProcess } from '../support/cli.js';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';

const PROJECT = 'clearin';
const KEY = `w1:${randomBytes(32).toString('base64')}`;

const keylessEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') };
  for (const name of ['TASKLOOP_CODEC_KEYS', 'TASKLOOP_CODEC_KEY_FILE', 'TASKLOOP_CODEC']) delete env[name];
  return env;
};

const runArgs = (repo: string, id: string, queue: string, wait: boolean) => [
  'run',
  '--repo',
  repo,
  '--goal',
  'Fix add in calc.py',
  '--model',
  'scripted:script.json',
  '--project',
  PROJECT,
  '--id',
  id,
  '--task-queue',
  queue,
  ...(wait ? ['--wait'] : []),
];

describe('a keyless CLI next to workers that hold a payload key', () => {
  const t = useTestClient();
  const children: ResultPromise[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => child.catch(() => undefined)));
  });

  it('stores nothing and says why; a task started in clear before the worker came fails at its claim', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    // Stored in clear while no worker polls the queue: the CLI cannot tell (nobody says they encrypt) ...
    const queue = uniqueId('clearin');
    const early = uniqueId('early');
    const started = await runTaskloop(runArgs(project.repo, early, queue, false), {
      cwd: project.dir,
      env: keylessEnv(),
    });
    expect(started.exitCode, started.all).toBe(0);

    const worker = await startWorkerProcess(await workerProcessEnv(queue, { TASKLOOP_CODEC_KEYS: KEY }));
    children.push(worker.child);
    expect(worker.output).toContain('a task whose input is stored in clear is refused');

    // ... so the keyed worker refuses it at the claim, before a worktree or a model: failed, naming both fixes.
    const watched = await runTaskloop(['watch', early], {
      env: { ...keylessEnv(), TASKLOOP_CODEC_KEYS: KEY },
      timeout: 180_000,
    });
    expect(watched.all).toContain('FAILED');
    const status = await runTaskloop(['status', early], { env: { ...keylessEnv(), TASKLOOP_CODEC_KEYS: KEY } });
    expect(status.all).toContain("this task's start input is stored in clear (encoding json/plain)");
    expect(status.all).toContain('TASKLOOP_ACCEPT_CLEAR_INPUTS=1');

    // With the worker polling, a keyless `run` stops before it starts anything.
    const late = uniqueId('late');
    const refused = await runTaskloop(runArgs(project.repo, late, queue, true), {
      cwd: project.dir,
      env: keylessEnv(),
    });
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.all).toContain(`the workers serving task queue ${queue} encrypt payloads (key id "w1")`);
    expect(refused.all).toContain('nothing was started or sent');
    expect(refused.all).toContain('TASKLOOP_CODEC_KEYS');
    const stored = await t.client.workflow
      .getHandle(taskWorkflowId({ project: PROJECT, id: late }))
      .describe()
      .then(
        () => true,
        () => false,
      );
    expect(stored).toBe(false);
  }, 300_000);
});
