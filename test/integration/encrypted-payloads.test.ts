// With a payload key on the CLI and the worker, a goal and a hint never reach the Temporal server in clear, while
// those who hold the key read them: `taskloop status`, and the `temporal` CLI through `taskloop codec-server`.
import { execa, type ResultPromise } from 'execa';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { TaskIdKey } from '../../workflows/search-attributes.js';
import { runTaskloop, startTaskloop, startWorkerProcess } from '../support/cli.js';
import { fixTurns, makeCalcProject, wrongTurns } from '../support/calc-project.js';
import { eventually, uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';

const PROJECT = 'codec';
const keyA = `a:${randomBytes(32).toString('base64')}`;
const keyB = `b:${randomBytes(32).toString('base64')}`;
const GOAL_MARKER = `goalmarker${randomBytes(6).toString('hex')}`;
const HINT_MARKER = `hintmarker${randomBytes(6).toString('hex')}`;

const cliEnv = (keys: string | undefined): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') };
  delete env.TASKLOOP_CODEC_KEY_FILE;
  delete env.TASKLOOP_CODEC;
  if (keys === undefined) delete env.TASKLOOP_CODEC_KEYS;
  else env.TASKLOOP_CODEC_KEYS = keys;
  return env;
};

/** Every string of a JSON value, and each one read as base64 (how `-o json` shows payload bytes). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value, Buffer.from(value, 'base64').toString('latin1')];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

async function showHistory(workflowId: string, runId: string, extra: string[] = []) {
  const { stdout } = await execa(inject('temporalCli'), [
    'workflow',
    'show',
    '--address',
    inject('temporalAddress'),
    '--workflow-id',
    workflowId,
    '--run-id',
    runId,
    '--output',
    'json',
    ...extra,
  ]);
  const history = JSON.parse(stdout) as { events: unknown[] };
  return { events: history.events, strings: stringsOf(history) };
}

describe('encrypted payloads on the real dev server', () => {
  const t = useTestClient();
  const children: ResultPromise[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => child.catch(() => undefined)));
  });

  it('stores a goal and a retry hint only encrypted; status and the temporal CLI through the codec server show them', async () => {
    const queue = uniqueId('codec');
    const worker = await startWorkerProcess(await workerProcessEnv(queue, { TASKLOOP_CODEC_KEYS: keyA }));
    children.push(worker.child);
    const project = await makeCalcProject({ coder: [...wrongTurns(), ...fixTurns()] });
    const id = uniqueId('secret-goal');
    const workflowId = taskWorkflowId({ project: PROJECT, id });
    const goal = `Fix add in calc.py ${GOAL_MARKER}`;
    const hint = `${HINT_MARKER}: add must return a + b`;
    const run = await runTaskloop(
      [
        'run',
        '--repo',
        project.repo,
        '--goal',
        goal,
        '--model',
        'scripted:script.json',
        '--project',
        PROJECT,
        '--id',
        id,
        '--task-queue',
        queue,
        '--max-retries',
        '0',
        '--retry-window',
        '10m',
      ],
      { cwd: project.dir, env: cliEnv(keyA) },
    );
    expect(run.exitCode, run.all).toBe(0);
    // Failed, waiting for a hint: the live state holds the goal, decoded for a CLI with the key (also after a
    // rotation: B current, A still known).
    await eventually(
      'the task waiting for a hint',
      async () => {
        const status = await runTaskloop(['status', id], { env: cliEnv(keyA) });
        return status.stdout.includes('accepts `taskloop retry`') ? true : undefined;
      },
      90_000,
    );
    for (const keys of [keyA, `${keyB},${keyA}`]) {
      const status = await runTaskloop(['status', id], { env: cliEnv(keys) });
      expect(status.exitCode, status.all).toBe(0);
      expect(status.stdout).toContain(`goal: ${goal}`);
    }
    // The retry goes in by the update (its accepted event holds the hint).
    const retry = await runTaskloop(['retry', id, '--hint', hint], { env: cliEnv(keyA) });
    expect(retry.exitCode, retry.all).toBe(0);
    const done = await runTaskloop(['watch', id], { env: cliEnv(keyA) });
    expect(done.all).toContain('COMPLETED');

    const runIds = await eventually('the runs listed', async () => {
      const ids: string[] = [];
      for await (const execution of t.client.workflow.list({ query: `${TaskIdKey.name} = "${id}"` }))
        ids.push(execution.runId);
      return ids.length > 0 ? ids : undefined;
    });

    // The server's own view: every event of every run, every string and every payload's bytes.
    let events = 0;
    for (const runId of runIds) {
      const raw = await showHistory(workflowId, runId);
      events += raw.events.length;
      for (const marker of [GOAL_MARKER, HINT_MARKER])
        expect(
          raw.strings.filter((text) => text.includes(marker)),
          `${marker} in run ${runId}`,
        ).toEqual([]);
      expect(raw.strings.some((text) => text.includes('binary/encrypted'))).toBe(true);
    }
    expect(events).toBeGreaterThan(40);

    // Those who hold the key: the CLI decodes the hint, after a rotation too ...
    for (const keys of [keyA, `${keyB},${keyA}`]) {
      const status = await runTaskloop(['status', id], { env: cliEnv(keys) });
      expect(status.exitCode, status.all).toBe(0);
      expect(status.stdout).toContain(`hint: ${HINT_MARKER}`);
    }
    // ... a CLI without the key shows none of it, and names the key it needs ...
    const keyless = await runTaskloop(['status', id], { env: cliEnv(undefined) });
    expect(keyless.all).toContain('encrypted with key id "a" but this host has no payload key');
    expect(keyless.all).not.toContain(GOAL_MARKER);

    // ... and the temporal CLI, through the codec server.
    const server = await startTaskloop(['codec-server', '--port', '0'], {
      env: cliEnv(keyA),
      readyText: '  CLI:',
    });
    children.push(server.child);
    // The endpoint as printed: its path holds the server's token (every call needs it).
    const endpoint = /Web UI: Codec Server endpoint (http:\/\/127\.0\.0\.1:\d+\/\w+)/.exec(server.output)?.[1];
    expect(endpoint).toBeDefined();
    const decoded = await Promise.all(
      runIds.map((runId) => showHistory(workflowId, runId, ['--codec-endpoint', endpoint as string])),
    );
    const decodedStrings = decoded.flatMap((history) => history.strings);
    expect(decodedStrings.some((text) => text.includes(GOAL_MARKER))).toBe(true);
    expect(decodedStrings.some((text) => text.includes(HINT_MARKER))).toBe(true);
  });
});
