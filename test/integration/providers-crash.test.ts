// The worker killed during the coder step: the retried coder resumes from its saved transcript.
import { describe, expect, it } from 'vitest';
import { makeCalcProject } from '../support/calc-project.js';
import { crashAndRestartWorker, startWorkerProcess } from '../support/cli.js';
import { chatReply, startLocalModelServer } from '../unit/activities/models/support/local-model-server.js';
import { eventually, uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';
import { startTestTask, taskloopCommits, taskSpec } from './support/tasks.js';

const tool = (name: string, args: Record<string, unknown>) => chatReply('', [{ name, arguments: args }]);

describe('a worker killed during the coder step', () => {
  const t = useTestClient();

  it('completes after a restart, and the server sees no repeated request for turns it already answered', async () => {
    const server = await startLocalModelServer([
      { body: tool('read_file', { path: 'calc.py' }) },
      { body: tool('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return a + b' }) },
      // The third turn hangs: the worker is killed while it waits.
      { body: tool('finish', { summary: 'too late' }), delayMs: 120_000 },
      { body: tool('finish', { summary: 'added' }) },
    ]);
    const taskQueue = uniqueId('coder-crash');
    const env = await workerProcessEnv(taskQueue, {
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: 'local-test-key',
    });
    const project = await makeCalcProject({});
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', models: { coder: 'openai:local-model' } });

    const { child: first } = await startWorkerProcess(env);
    const handle = await startTestTask(t.client, taskQueue, spec);
    await eventually('the third model request', async () => (server.requests.length >= 3 ? true : undefined), 60_000);
    const { child: second } = await crashAndRestartWorker(first, env);
    try {
      const outcome = await handle.result();
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.attempts).toHaveLength(1);
      expect(outcome.attempts[0]?.coder).toMatchObject({ status: 'finished', summary: 'added', turnsConsumed: 3 });
      expect(outcome.attempts[0]?.coder?.telemetry.modelRequests).toBe(3);
      expect(await taskloopCommits(project.repo, `taskloop/${spec.id}`)).toHaveLength(1);

      // Requests grow by one answered turn each; after the restart only the unanswered third turn is asked again.
      const sizes = server.requests.map((request) => (request.body.messages as unknown[]).length);
      expect(server.requests).toHaveLength(4);
      expect(sizes[3]).toBe(sizes[2]);
      expect(new Set(sizes.slice(0, 3)).size).toBe(3);
    } finally {
      second.kill('SIGTERM');
      await second.catch(() => undefined);
      await server.close();
    }
  }, 150_000);
});
