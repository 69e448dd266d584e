// The answers to a task that waits for approval, sent from the `temporal` CLI with the very commands
// docs/review-and-land.md prints (read from the page, only the workflow id put in): approve completes a task;
// request-changes starts round 2, and reject ends it FAILED `rejected_by_reviewer`; with payload keys, the approve
// through `taskloop codec-server` (`--codec-endpoint`) is taken by a worker that reads only encrypted payloads.
import { execa, type ResultPromise } from 'execa';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../platform/paths.js';
import { runTaskloop, startTaskloop, startWorkerProcess } from '../support/cli.js';
import { fixTurns, makeCalcProject, turn } from '../support/calc-project.js';
import { startTestTask, taskOutcome, taskSpec, waitForState } from './support/tasks.js';
import { eventually, uniqueId, useTestTemporal, workerProcessEnv } from './support/temporal.js';

const DOC_WORKFLOW_ID = 'task-default-fix-1';

/** The page's `temporal workflow update execute` commands, by update name, each as one line of shell. */
async function documentedCommands(): Promise<Map<string, string>> {
  const page = await readFile(path.join(projectRoot, 'docs', 'review-and-land.md'), 'utf8');
  const after = page.slice(page.indexOf('The same answers from the `temporal` CLI'));
  const block = /```bash\n([\s\S]*?)```/.exec(after)?.[1] ?? '';
  const commands = block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter(Boolean);
  const byName = new Map(commands.map((command) => [/--name (\S+)/.exec(command)?.[1] ?? '', command]));
  expect([...byName.keys()]).toEqual(['approve', 'request-changes', 'reject']);
  for (const command of commands) expect(command).toContain(`--workflow-id ${DOC_WORKFLOW_ID} `);
  return byName;
}

/** Runs a documented command as a shell would, `temporal` on the PATH, for `workflowId` instead of the page's. */
async function runDocumented(command: string, workflowId: string, extra = '') {
  const bin = await mkdtemp(path.join(os.tmpdir(), 'taskloop-temporal-bin-'));
  await symlink(inject('temporalCli'), path.join(bin, 'temporal'));
  const line = command.replace(DOC_WORKFLOW_ID, workflowId) + extra;
  return execa('bash', ['-c', line], {
    reject: false,
    all: true,
    timeout: 120_000,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, TEMPORAL_ADDRESS: inject('temporalAddress') },
  });
}

const docstringTurns = () => [
  turn('replace_in_file', { path: 'calc.py', old: 'def add(a, b):\n', new: 'def add(a, b):\n    """Sum."""\n' }),
  turn('finish', { summary: 'documented add' }),
];

const awaitingRound = (round: number) => (state: { status: string; review?: { rounds: unknown[] } }) =>
  state.status === 'AWAITING_APPROVAL' && state.review?.rounds.length === round;

describe('answers from the temporal CLI, as docs/review-and-land.md prints them', () => {
  const t = useTestTemporal('temporal-cli');
  const children: ResultPromise[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => child.catch(() => undefined)));
  });

  it('approve completes a task; request-changes starts round 2, then reject fails it rejected_by_reviewer', async () => {
    const commands = await documentedCommands();
    const project = await makeCalcProject({ coder: [...fixTurns(), ...docstringTurns()] });
    const spec = (id: string) =>
      taskSpec({
        id: uniqueId(id),
        repo: project.repo,
        goal: 'Fix add in calc.py',
        models: { coder: `scripted:${project.scriptFile}` },
        approval: 'required',
      });
    const approved = await startTestTask(t.client, t.host.taskQueue, spec('approved'));
    const rejected = await startTestTask(t.client, t.host.taskQueue, spec('rejected'));
    await waitForState(approved, 'round 1 awaits approval', awaitingRound(1), 180_000);
    const approve = await runDocumented(commands.get('approve')!, approved.workflowId);
    expect(approve.exitCode, approve.all).toBe(0);
    const done = await taskOutcome(approved);
    expect(done.status).toBe('COMPLETED');
    expect(done.review?.rounds[0]?.answer).toMatchObject({ kind: 'approve', author: 'ana', text: 'looks good' });

    await waitForState(rejected, 'round 1 awaits approval', awaitingRound(1), 180_000);
    const ask = await runDocumented(commands.get('request-changes')!, rejected.workflowId);
    expect(ask.exitCode, ask.all).toBe(0);
    const round2 = await waitForState(rejected, 'round 2 awaits approval', awaitingRound(2), 180_000);
    expect(round2.review?.rounds[0]?.answer).toMatchObject({ kind: 'request-changes', text: 'give add a docstring' });
    const reject = await runDocumented(commands.get('reject')!, rejected.workflowId);
    expect(reject.exitCode, reject.all).toBe(0);
    const failed = await taskOutcome(rejected);
    expect(failed.status).toBe('FAILED');
    expect(failed.recommendation).toBe('rejected_by_reviewer');
    expect(failed.review?.rounds[1]?.answer).toMatchObject({ kind: 'reject', author: 'ana', text: 'not this way' });
  }, 600_000);

  it('with payload keys, the documented approve through the codec server is taken', async () => {
    const commands = await documentedCommands();
    const key = `k1:${randomBytes(32).toString('base64')}`;
    const queue = uniqueId('temporal-cli-codec');
    const env = await workerProcessEnv(queue, { TASKLOOP_CODEC_KEYS: key });
    delete env.TASKLOOP_CODEC_KEY_FILE;
    const worker = await startWorkerProcess(env);
    children.push(worker.child);
    const project = await makeCalcProject({ coder: fixTurns() });
    const id = uniqueId('coded');
    const workflowId = `task-default-${id}`;
    const started = await runTaskloop(
      [
        ...['run', '--repo', project.repo, '--goal', 'Fix add in calc.py', '--model', 'scripted:script.json'],
        ...['--id', id, '--task-queue', queue, '--approval', 'required'],
      ],
      { cwd: project.dir, env },
    );
    expect(started.exitCode, started.all).toBe(0);
    const status = async () => JSON.parse((await runTaskloop(['status', id, '--json'], { env })).stdout) as unknown;
    const stateOf = (printed: unknown) =>
      (printed as { state?: { status: string }; outcome?: { status: string } }).state ??
      (printed as { outcome?: { status: string } }).outcome;
    await eventually(
      'round 1 awaits approval',
      async () => (stateOf(await status().catch(() => ({})))?.status === 'AWAITING_APPROVAL' ? true : undefined),
      180_000,
    );
    const codec = await startTaskloop(['codec-server', '--port', '0'], {
      env,
      readyText: '  CLI:',
    });
    children.push(codec.child);
    // The endpoint as printed: its path holds the server's token.
    const endpoint = /Web UI: Codec Server endpoint (http:\/\/127\.0\.0\.1:\d+\/\w+)/.exec(codec.output)?.[1] ?? '';
    expect(endpoint).not.toBe('');
    const approve = await runDocumented(commands.get('approve')!, workflowId, ` --codec-endpoint ${endpoint}`);
    expect(approve.exitCode, approve.all).toBe(0);
    const done = await eventually(
      'the task completes',
      async () => {
        const state = stateOf(await status().catch(() => ({})));
        return state?.status === 'COMPLETED' ? state : undefined;
      },
      120_000,
    );
    expect(done).toMatchObject({ review: { rounds: [{ answer: { kind: 'approve', author: 'ana' } }] } });
  }, 600_000);
});
