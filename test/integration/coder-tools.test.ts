// The coder checks its own work: run_tests inside the attempt, capability-scoped tools, missing_capability.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, Connection } from '@temporalio/client';
import { makeCalcProject, turn } from '../support/calc-project.js';
import { chatReply, startLocalModelServer } from '../unit/activities/models/support/local-model-server.js';
import { connectTestClient, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';
import { startTestTask, taskSpec, taskOutcome } from './support/tasks.js';

type Message = { role: string; name?: string; content: string };
const transcriptOf = async (path: string | undefined) => JSON.parse(await readFile(path ?? '', 'utf8')) as Message[];
const toolReplies = (messages: Message[], name: string) =>
  messages.filter((message) => message.role === 'tool' && message.name === name).map((message) => message.content);

describe('the coder as a capability-scoped agent that checks its own work', () => {
  let client: Client;
  let connection: Connection;
  let host: TestWorkerHost;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId('coder-tools') });
  });
  afterAll(async () => {
    await host?.stop();
    await connection?.close();
  });

  it('edits wrongly, runs the tests, reads the failing id and excerpt, fixes and passes at attempt 1', async () => {
    const project = await makeCalcProject({
      coder: [
        turn('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return b - a' }),
        turn('run_tests', {}),
        turn('replace_in_file', { path: 'calc.py', old: 'return b - a', new: 'return a + b' }),
        turn('run_tests', { tests: ['tests/test_calc.py::test_add'] }),
        turn('finish', { summary: 'add adds; checked with the tests' }),
      ],
    });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.telemetry).toMatchObject({ in_attempt_test_runs: 2, refused_tool_calls: 0 });
    const [failing, passing] = toolReplies(
      await transcriptOf(outcome.attempts[0]?.coder?.transcript?.path),
      'run_tests',
    );
    expect(failing).toContain('- tests/test_calc.py::test_add');
    expect(failing).toContain('assert 1 == 5');
    expect(passing).toContain('tests passed: 1 total, 1 passed');
  });

  it('refuses run_tests to a coder version without RUN_TESTS, naming the capability', async () => {
    const project = await makeCalcProject({
      coder: [
        turn('run_tests', {}),
        turn('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return a + b' }),
        turn('finish', { summary: 'fixed add' }),
      ],
    });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      agents: { coder: 'coder-1-no-tests' },
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.telemetry).toMatchObject({ in_attempt_test_runs: 0, refused_tool_calls: 1 });
    const [refusal] = toolReplies(await transcriptOf(outcome.attempts[0]?.coder?.transcript?.path), 'run_tests');
    expect(refusal).toContain(
      'refused: run_tests needs capability RUN_TESTS, which coder/coder-1-no-tests does not have',
    );
  });

  it('fails a task pinned to a coder version without WRITE_WORKTREE with missing_capability and no model call', async () => {
    const project = await makeCalcProject({ coder: [turn('finish', { summary: 'never called' })] });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      agents: { coder: 'coder-investigator' },
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

    expect(outcome.status).toBe('FAILED');
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]?.failure).toMatchObject({ node: 'code', failureClass: 'missing_capability' });
    expect(outcome.attempts[0]?.failure?.reason).toContain('coder/coder-investigator lacks WRITE_WORKTREE');
    expect(outcome.budget?.spent.modelCalls ?? 0).toBe(0);
    expect(outcome.telemetry.model_requests_per_task).toBe(0);
  });

  it('holds a conversation through the local OpenAI-protocol server using run_tests and git_diff', async () => {
    const server = await startLocalModelServer();
    process.env.TASKLOOP_CODER_OPENAI_BASE_URL = `${server.url}/v1`;
    process.env.TASKLOOP_CODER_OPENAI_API_KEY = 'local-test-key';
    try {
      const call = (name: string, args: Record<string, unknown>) => ({
        body: chatReply('', [{ name, arguments: args }]),
      });
      server.push(
        call('run_tests', {}),
        call('replace_in_file', { path: 'calc.py', old: 'return a - b', new: 'return a + b' }),
        call('git_diff', {}),
        call('run_tests', {}),
        call('finish', { summary: 'add adds' }),
      );
      const project = await makeCalcProject({});
      const spec = taskSpec({
        repo: project.repo,
        goal: 'Fix add in calc.py',
        models: { coder: 'openai:local-model' },
      });
      const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.telemetry).toMatchObject({ in_attempt_test_runs: 2 });
      const offered = (server.requests[0]?.body.tools as { function: { name: string } }[]).map(
        (tool) => tool.function.name,
      );
      expect(offered).toEqual(
        expect.arrayContaining(['run_tests', 'git_diff', 'git_log', 'show_file', 'delete_file', 'move_file']),
      );
      // The model saw the failing test, then its own diff, over the wire.
      const sent = (index: number) => JSON.stringify(server.requests[index]?.body.messages);
      expect(sent(1)).toContain('tests/test_calc.py::test_add');
      expect(sent(3)).toContain('+    return a + b');
      expect(sent(4)).toContain('tests passed: 2 total, 2 passed');
    } finally {
      delete process.env.TASKLOOP_CODER_OPENAI_BASE_URL;
      delete process.env.TASKLOOP_CODER_OPENAI_API_KEY;
      await server.close();
    }
  });
});
