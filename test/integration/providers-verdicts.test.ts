// Reviewer and judge models: their verdicts merge with the policy checks; a malformed verdict never passes.
import type { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { startLocalModelServer } from '../unit/activities/models/support/local-model-server.js';
import { connectTestClient, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';
import { startTestTask, taskOutcome, taskSpec } from './support/tasks.js';

const verdict = (value: unknown) => ({ content: typeof value === 'string' ? value : JSON.stringify(value) });

describe('reviewer and judge models in the task workflow', () => {
  let client: Client;
  let connection: Connection;
  let host: TestWorkerHost;

  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId('verdicts') });
  });
  afterAll(async () => {
    await host?.stop();
    await connection?.close();
  });

  it("retries when the reviewer model fails the change, and records every role's version on the commit", async () => {
    const project = await makeCalcProject({
      coder: [...fixTurns('first try'), ...fixTurns('second try')],
      reviewer: [
        verdict({ verdict: 'fail', findings: [{ file: 'calc.py', line: 2, reason: 'needs a docstring' }] }),
        verdict({ verdict: 'pass' }),
      ],
      judge: [verdict('```json\n{"verdict": "pass"}\n```')],
    });
    const models = {
      coder: `scripted:${project.scriptFile}`,
      reviewer: `scripted:${project.scriptFile}`,
      judge: `scripted:${project.scriptFile}`,
    };
    const outcome = await (
      await startTestTask(client, host.taskQueue, taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', models }))
    ).result();

    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts[0]?.review?.findings).toEqual([
      { rule: 'model_review', message: 'needs a docstring', file: 'calc.py', line: 2 },
    ]);
    expect(outcome.attempts[0]?.failure?.node).toBe('review');
    expect(outcome.commit?.agentVersions).toEqual(['coder/coder-1', 'reviewer/reviewer-1', 'judge/judge-1']);
    expect(outcome.budget?.spent.modelCalls).toBe(4 + 2 + 1);
  });

  it('fails the attempt as a model problem when the judge model twice gives no valid verdict', async () => {
    const project = await makeCalcProject({
      coder: fixTurns(),
      judge: [verdict('looks fine'), verdict('{"verdict": fine}'), verdict({ verdict: 'pass' })],
    });
    const models = { coder: `scripted:${project.scriptFile}`, judge: `scripted:${project.scriptFile}` };
    const outcome = await taskOutcome(
      await startTestTask(
        client,
        host.taskQueue,
        taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', maxRetries: 0, models }),
      ),
    );

    expect(outcome.status).toBe('FAILED');
    expect(outcome.attempts[0]?.judge).toMatchObject({ passed: false, agent: 'judge/judge-1' });
    expect(outcome.attempts[0]?.judge?.findings.map((finding) => finding.rule)).toEqual(['model_verdict_invalid']);
    expect(outcome.attempts[0]?.failure).toMatchObject({ node: 'judge', failureClass: 'model_problem' });
  });

  it("counts a reviewer's failed calls in the attempt and the budget, waiting for its server as long as the task says", async () => {
    // A reviewer server that stays loading (503): every call fails, and the wait ends at models.reviewer.serverWaitMs.
    const loading = { status: 503, body: { error: { message: 'Loading model' } } };
    const server = await startLocalModelServer(Array.from({ length: 10 }, () => loading));
    process.env.TASKLOOP_REVIEWER_OPENAI_BASE_URL = `${server.url}/v1`;
    try {
      const project = await makeCalcProject({ coder: fixTurns() });
      const models = {
        coder: `scripted:${project.scriptFile}`,
        reviewer: { model: 'openai:gemma', serverWaitMs: 2_000 },
      };
      const spec = taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', maxRetries: 0, models });
      const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

      expect(outcome.status).toBe('FAILED');
      const [attempt] = outcome.attempts;
      expect(attempt?.failure).toMatchObject({ node: 'review', failureClass: 'environment_problem' });
      expect(attempt?.failure?.reason).toContain('models.reviewer.serverWaitMs');
      const sent = server.requests.length;
      expect(sent).toBeGreaterThanOrEqual(2);
      expect(attempt?.verdictsSpent).toEqual([
        expect.objectContaining({
          role: 'reviewer',
          modelSpec: 'openai:gemma',
          modelRequests: sent,
          failedModelRequests: sent,
          modelServerWaits: sent - 1,
        }),
      ]);
      // No request got usage back: their tokens are unknown, counted apart, never guessed into the totals.
      expect(attempt?.verdictsSpent?.[0]).toMatchObject({ inputTokens: 0, unmeteredModelRequests: sent });
      const coderCalls = attempt?.coder?.telemetry.modelRequests ?? 0;
      expect(outcome.budget?.spent.modelCalls).toBe(coderCalls + sent);
    } finally {
      delete process.env.TASKLOOP_REVIEWER_OPENAI_BASE_URL;
      await server.close();
    }
  });

  it("sums a reviewer's failed calls over Temporal's retries of its activity (the counts ride on its heartbeats)", async () => {
    // Every reply comes after the 1 s timeout: each of the activity's three tries sends one request that times out.
    const late = { body: { choices: [] }, delayMs: 4_000 };
    const server = await startLocalModelServer(Array.from({ length: 6 }, () => late));
    Object.assign(process.env, {
      TASKLOOP_REVIEWER_OPENAI_BASE_URL: `${server.url}/v1`,
      TASKLOOP_MODEL_TIMEOUT_MS: '1000',
    });
    try {
      const project = await makeCalcProject({ coder: fixTurns() });
      const models = { coder: `scripted:${project.scriptFile}`, reviewer: 'openai:gemma' };
      const spec = taskSpec({
        repo: project.repo,
        goal: 'Fix add in calc.py',
        maxRetries: 0,
        envRetryLimit: 0,
        models,
      });
      const outcome = await taskOutcome(await startTestTask(client, host.taskQueue, spec));

      expect(outcome.status).toBe('FAILED');
      expect(outcome.attempts[0]?.failure?.node).toBe('review');
      expect(server.requests).toHaveLength(3);
      expect(outcome.attempts[0]?.verdictsSpent).toEqual([
        expect.objectContaining({ role: 'reviewer', modelRequests: 3, failedModelRequests: 3 }),
      ]);
    } finally {
      delete process.env.TASKLOOP_REVIEWER_OPENAI_BASE_URL;
      delete process.env.TASKLOOP_MODEL_TIMEOUT_MS;
      await server.close();
    }
  });
});
