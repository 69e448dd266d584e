// The Web UI of a dev server whose codec endpoint is `taskloop codec-server`, in a real headless Chromium: a task's
// goal stored encrypted is shown decoded to the browser, which alone fetched it from the codec server.
import { execa, type ResultPromise } from 'execa';
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { domText, dumpPageDom, findChromium } from '../../scripts/web-ui/browser.js';
import { startDevServerOnFreePort, type RunningDevServer } from '../../platform/server/dev-server.js';
import { findFreePort } from '../../platform/server/ports.js';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { runTaskloop, startTaskloop, startWorkerProcess } from '../support/cli.js';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { uniqueId, workerProcessEnv } from './support/temporal.js';

const KEYS = `a:${randomBytes(32).toString('base64')}`;
const MARKER = `uimarker${randomBytes(6).toString('hex')}`;

describe('the Web UI with the codec server as its codec endpoint', () => {
  const children: ResultPromise[] = [];
  let server: RunningDevServer | undefined;
  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => child.catch(() => undefined)));
    await server?.stop();
  });

  it('shows an encrypted task goal decoded in Chromium', async () => {
    const browser = await findChromium();
    const uiPort = await findFreePort();
    const keyed = { ...process.env, TASKLOOP_CODEC_KEYS: KEYS, TASKLOOP_CODEC_KEY_FILE: '', TASKLOOP_CODEC: '' };
    const codec = await startTaskloop(['codec-server', '--port', '0', '--origin', `http://127.0.0.1:${uiPort}`], {
      env: keyed,
      readyText: '  CLI:',
    });
    children.push(codec.child);
    // The endpoint as printed for the Web UI: its path holds the server's token, which the UI cannot send otherwise.
    const endpoint = /Web UI: Codec Server endpoint (http:\/\/127\.0\.0\.1:\d+\/\w+)/.exec(codec.output)?.[1] ?? '';
    expect(endpoint).not.toBe('');
    const work = await mkdtemp(path.join(os.tmpdir(), 'taskloop-codec-ui-'));
    server = await startDevServerOnFreePort({
      cliPath: inject('temporalCli'),
      uiPort,
      uiCodecEndpoint: endpoint,
      readyTimeoutMs: 90_000,
      logFile: path.join(work, 'server.log'),
    });
    const env = { ...keyed, TEMPORAL_ADDRESS: server.address };
    const queue = uniqueId('codec-ui');
    const worker = await startWorkerProcess({
      ...(await workerProcessEnv(queue, { TASKLOOP_CODEC_KEYS: KEYS })),
      TEMPORAL_ADDRESS: server.address,
    });
    children.push(worker.child);
    const project = await makeCalcProject({ coder: fixTurns() });
    const id = uniqueId('ui-goal');
    const run = await runTaskloop(
      ['run', '--repo', project.repo, '--goal', `Fix add ${MARKER}`, '--model', 'scripted:script.json'].concat([
        '--project',
        'codecui',
        '--id',
        id,
        '--task-queue',
        queue,
        '--wait',
      ]),
      { cwd: project.dir, env },
    );
    expect(run.exitCode, run.all).toBe(0);
    const workflowId = taskWorkflowId({ project: 'codecui', id });
    // The server holds only ciphertext: whatever the page shows of the goal came through the codec server.
    const raw = await execa(inject('temporalCli'), [
      'workflow',
      'show',
      '--address',
      server.address,
      '-w',
      workflowId,
      '-o',
      'json',
    ]);
    expect(raw.stdout).not.toContain(MARKER);
    expect(raw.stdout).toContain('"encryption-key-id"');

    const page = `${server.uiUrl ?? ''}/namespaces/default/workflows/${workflowId}`;
    const text = domText(await dumpPageDom(browser, page, { width: 1440, height: 1400, settleMs: 20_000 }));
    expect(text, text.slice(0, 2000)).toContain(MARKER);
  }, 300_000);
});
