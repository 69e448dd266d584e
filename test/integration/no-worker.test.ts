// A queue no worker polls: `run --wait`, `watch` and `status` say so within seconds instead of waiting in silence.
import { describe, expect, inject, it } from 'vitest';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { runTaskloop, startTaskloop } from '../support/cli.js';
import { startTestWorkers, uniqueId } from './support/temporal.js';

const env = () => ({ ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') });

describe('a task on a queue that no worker serves', () => {
  it('is named by run --wait, watch and status, which name `taskloop worker` and the queue; run --wait finishes once a worker comes', async () => {
    const queue = uniqueId('no-worker');
    const project = await makeCalcProject({ coder: fixTurns() });
    const id = uniqueId('lonely');
    const noWorker = `no worker serves task queue ${queue}: start one with \`taskloop worker\``;
    const run = startTaskloop(
      [
        'run',
        '--repo',
        project.repo,
        '--goal',
        'Fix add',
        '--model',
        `scripted:${project.scriptFile}`,
        '--id',
        id,
        '--task-queue',
        queue,
        '--wait',
      ],
      { env: env(), readyText: noWorker },
    );
    const { child: waiting } = await run;
    const watch = await startTaskloop(['watch', id], { env: env(), readyText: noWorker });
    watch.child.kill('SIGTERM');
    await watch.child.catch(() => undefined);

    const status = await runTaskloop(['status', id], { env: env(), timeout: 30_000 });
    expect(status.exitCode).toBe(1);
    expect(status.all).toContain(`is running, but ${noWorker}`);

    const host = await startTestWorkers({ taskQueue: queue });
    try {
      const finished = await waiting;
      expect(finished.exitCode).toBe(0);
      expect(finished.all).toContain(`a worker now serves task queue ${queue}`);
      expect(finished.all).toContain('COMPLETED');
    } finally {
      await host.stop();
    }
  });
});
