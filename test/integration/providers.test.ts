// Whole tasks through the workflow with the openai provider pointed at a local chat-completions server.
import type { Client, Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stateQuery } from '../../workflows/messages.js';
import { makeCalcProject, turn } from '../support/calc-project.js';
import {
  chatReply,
  startLocalModelServer,
  type LocalModelServer,
} from '../unit/activities/models/support/local-model-server.js';
import { connectTestClient, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';
import { startTestTask, taskloopCommits, taskOutcome, taskSpec } from './support/tasks.js';

const edit = (to: string) => ({
  body: chatReply('', [
    { name: 'replace_in_file', arguments: { path: 'calc.py', old: 'return a - b', new: `return ${to}` } },
  ]),
});
const finish = (summary: string) => ({ body: chatReply('', [{ name: 'finish', arguments: { summary } }]) });

describe('tasks with the openai provider against a local server', () => {
  let client: Client;
  let connection: Connection;
  let host: TestWorkerHost;
  let server: LocalModelServer | undefined;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId('providers') });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(async () => {
    await host?.stop();
    await connection?.close();
  });

  /** Points the coder role of this in-process worker at a fresh local server. */
  async function serveCoder(): Promise<LocalModelServer> {
    server = await startLocalModelServer();
    process.env.TASKLOOP_CODER_OPENAI_BASE_URL = `${server.url}/v1`;
    process.env.TASKLOOP_CODER_OPENAI_API_KEY = 'local-test-key';
    return server;
  }

  it('fails attempt 1 and passes attempt 2; the commit record names the agent versions', async () => {
    const local = await serveCoder();
    local.push(edit('a * b'), finish('multiplied'), edit('a + b'), finish('added'));
    const project = await makeCalcProject({});
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', models: { coder: 'openai:local-model' } });
    const outcome = await (await startTestTask(client, host.taskQueue, spec)).result();

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'PASSED']);
    expect(outcome.attempts.map((attempt) => attempt.coderModel)).toEqual(['openai:local-model', 'openai:local-model']);
    expect(local.requests).toHaveLength(4);
    expect(local.requests.every((request) => request.headers.authorization === 'Bearer local-test-key')).toBe(true);
    // Attempt 2's first request carries attempt 1's pytest failure.
    expect(JSON.stringify(local.requests[2]?.body.messages)).toContain('assert 6 == 5');
    expect(await taskloopCommits(project.repo, `taskloop/${spec.id}`)).toHaveLength(1);
    expect(outcome.budget?.spent).toMatchObject({ modelCalls: 4, inputTokens: 400, outputTokens: 40 });
    // The agent versions are the registry's champions, recorded on each attempt and on the commit record.
    expect(outcome.attempts.map((attempt) => attempt.coder?.agent)).toEqual(['coder/coder-1', 'coder/coder-1']);
    expect(outcome.commit?.agentVersions).toEqual(['coder/coder-1']);
  });

  it('retries a 429 through the activity retry, no sooner than the Retry-After', async () => {
    const local = await serveCoder();
    local.push(
      { status: 429, headers: { 'retry-after': '3' }, body: { error: { message: 'rate limited' } } },
      edit('a + b'),
      finish('added'),
    );
    const project = await makeCalcProject({});
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', models: { coder: 'openai:local-model' } });
    const outcome = await (await startTestTask(client, host.taskQueue, spec)).result();

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts).toHaveLength(1);
    expect(local.requests).toHaveLength(3);
    const [first, second] = local.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(3000);
  });

  it('fails at once on a 401 as an environment problem, naming the variable to set, without retrying', async () => {
    const local = await serveCoder();
    local.push({ status: 401, body: { error: { message: 'invalid key' } } });
    const project = await makeCalcProject({});
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', models: { coder: 'openai:local-model' } });
    const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

    expect(outcome).toMatchObject({ status: 'FAILED', recommendation: 'environment_problem' });
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]?.failure?.cause?.kind).toBe('ModelAuth');
    expect(outcome.attempts[0]?.failure?.reason).toContain('TASKLOOP_CODER_OPENAI_API_KEY');
    expect(local.requests).toHaveLength(1);
  });

  it("fits the coder's prompt to the task's models.coder.contextWindow and names that setting when it cannot", async () => {
    const local = await serveCoder();
    const project = await makeCalcProject({});
    const models = { coder: { model: 'openai:local-model', contextWindow: 512 } };
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', maxRetries: 0, models });
    const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

    // The server reports no window (its /props is a 404): the task's 512 tokens cannot hold the first prompt.
    expect(outcome.status).toBe('FAILED');
    expect(outcome.attempts[0]?.failure?.cause?.kind).toBe('ContextOverflow');
    expect(outcome.attempts[0]?.failure?.reason).toContain('window of 512 tokens (from models.coder.contextWindow)');
    expect(local.requests).toHaveLength(0);
  });

  it('stops a task with a 3-call budget at 3 calls: FAILED, budget_exhausted, spend in the state query', async () => {
    // Alternating reads: the same call again and again would end the attempt as stuck before the budget does.
    const reads = Array.from({ length: 6 }, (_, i) =>
      turn('read_file', { path: i % 2 ? 'tests/test_calc.py' : 'calc.py' }),
    );
    const project = await makeCalcProject({ coder: reads });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      budgets: { maxModelCalls: 3 },
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const handle = await startTestTask(client, host.taskQueue, spec);
    const outcome = await taskOutcome(handle);

    expect(outcome.status).toBe('FAILED');
    expect(outcome.recommendation).toBe('budget_exhausted');
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]?.coder).toMatchObject({ status: 'budget_exhausted', turnsConsumed: 3 });
    const state = await handle.query(stateQuery);
    expect(state.budget?.spent.modelCalls).toBe(3);
    expect(state.budget?.limits.maxModelCalls).toBe(3);
    expect(state.budget?.spent.inputTokens).toBeGreaterThan(0);
  });
});
