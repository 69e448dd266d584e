// Canary secrets planted everywhere a task touches; after real runs (passing, failing, through an OpenAI-protocol
// server) no sink holds one: model requests, artifacts, events, git objects and reflogs, Temporal history, state.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { TaskOutcome } from '../../domain/task-state.js';
import { calcFiles, fixTurns, turn, wrongTurns } from '../support/calc-project.js';
import { runTaskloop } from '../support/cli.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { chatReply, startLocalModelServer } from '../unit/activities/models/support/local-model-server.js';
import { gitObjectIds, gitTextSince, hits, readTree, temporalText } from './support/sinks.js';
import { startTestTask, taskSpec } from './support/tasks.js';
import { startTestWorkers, uniqueId, useTestClient } from './support/temporal.js';

const declared = `sweep-declared-${Math.random().toString(36).slice(2, 10)}`;
const detected = `sweep-detected-${Math.random().toString(36).slice(2, 10)}`;
const canaries = [declared, detected];
// The worker's environment: one secret declared by name (secretEnvNames), one found by its name (…_TOKEN).
process.env.SWEEP_CANARY = declared;
process.env.SWEEP_API_TOKEN = detected;
afterAll(() => {
  delete process.env.SWEEP_CANARY;
  delete process.env.SWEEP_API_TOKEN;
});

// The coder reads config.txt; the tests print it and the test environment, and fail with it in the message.
const files = {
  ...calcFiles,
  'config.txt': `token=${declared}\napi=${detected}\n`,
  'tests/test_env.py':
    'import os\n\n\ndef test_env():\n    print(open("config.txt").read())\n    print(os.environ.get("SWEEP_CANARY"), os.environ.get("SWEEP_API_TOKEN"))\n' +
    '    assert open("calc.py").read().count("a + b") == 1, open("config.txt").read()\n',
};
const summary = `fixed add; the config said ${declared} and ${detected}`;
const readConfig = turn('read_file', { path: 'config.txt' }, `I saw ${declared}`);

describe('canary secrets planted in every input', () => {
  const t = useTestClient();

  it('refuses a goal holding a declared or detected secret (exit 2, naming the field, not the value)', async () => {
    const repo = await makeRepo(calcFiles);
    const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') };
    for (const goal of [`Fix add, the password is ${declared}`, `Fix add with ${detected}`]) {
      const run = await runTaskloop(
        ['run', '--repo', repo, '--goal', goal, '--model', 'scripted:x.json', '--secret-env', 'SWEEP_CANARY'],
        { env },
      );
      expect(run.exitCode).toBe(2);
      expect(run.all).toContain('goal holds the value of a secret environment variable');
      expect(hits([run.all ?? ''], canaries)).toEqual([]);
    }
  });

  it('reach no sink in passing, failing and OpenAI-protocol runs', async () => {
    const server = await startLocalModelServer([
      {
        body: chatReply(`Reading the config for ${declared}`, [
          { name: 'read_file', arguments: { path: 'config.txt' } },
        ]),
      },
      {
        body: chatReply('', [
          { name: 'replace_in_file', arguments: { path: 'calc.py', old: 'return a - b', new: 'return a + b' } },
        ]),
      },
      { body: chatReply('', [{ name: 'finish', arguments: { summary } }]) },
    ]);
    process.env.OPENAI_BASE_URL = `${server.url}/v1`;
    process.env.OPENAI_API_KEY = 'local-test-key';
    const host = await startTestWorkers({ taskQueue: uniqueId('sweep') });
    try {
      const runs = [
        { coder: [readConfig, ...fixTurns(summary)], maxRetries: 0, expected: 'COMPLETED' },
        { coder: [readConfig, ...wrongTurns()], maxRetries: 0, expected: 'FAILED' },
        { coder: undefined, maxRetries: 0, expected: 'COMPLETED' },
      ];
      const texts: string[] = [];
      for (const run of runs) {
        const repo = await makeRepo(files);
        const before = await gitObjectIds(repo);
        const scriptFile = path.join(await makeTempDir(), 'script.json');
        await writeFile(scriptFile, JSON.stringify({ coder: run.coder ?? [] }));
        const model = run.coder ? `scripted:${scriptFile}` : 'openai:local-model';
        const spec = taskSpec({
          repo,
          goal: 'Fix add in calc.py',
          models: { coder: model },
          maxRetries: run.maxRetries,
          secretEnvNames: ['SWEEP_CANARY'],
          testCommand: ['python3', '-m', 'pytest', '-s'],
          testEnv: { SWEEP_MODE: 'on' },
        });
        const handle = await startTestTask(t.client, host.taskQueue, spec);
        // A FAILED task may end its workflow as failed, with the outcome in the failure's details.
        const outcome = (await handle
          .result()
          .catch((error: { cause?: { details?: unknown[] } }) => error.cause?.details?.[0])) as TaskOutcome;
        expect(outcome.status).toBe(run.expected);
        texts.push(...(await temporalText(handle)), ...(await gitTextSince(repo, before)));
      }
      expect(server.requests).toHaveLength(3);
      texts.push(...server.requests.map((request) => JSON.stringify(request.body)), ...(await readTree(host.workDir)));
      // The canaries did travel: the test output and the coder's reads held them, and were scrubbed.
      expect(texts.join('\n')).toContain('token=[redacted]');
      expect(hits(texts, canaries)).toEqual([]);
    } finally {
      await host.stop();
      await server.close();
      delete process.env.OPENAI_BASE_URL;
      delete process.env.OPENAI_API_KEY;
    }
  }, 180_000);
});
