// The loop through the real local runtime (node-llama-cpp by default, llama-server with TASKLOOP_LOCAL_RUNTIME) serving the bundled Qwen2.5-Coder-0.5B-Instruct, started by the worker itself
// (`local:qwen2.5-coder-0.5b`; tier-model.ts says why the 0.5B).
// Asserted: what holds whatever the model says (protocol, usage, states, classes, cleanup, budgets, restarts).
// Recorded, not asserted: whether the small model fixes anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSpecsFor } from '../../activities/coder/tools/registry.js';
import { createModelProvider } from '../../activities/models/router.js';
import { findFreePort } from '../../platform/server/ports.js';
import { ownedLocalServer, stopOwnedLocalServer } from '../../platform/local-model/owned-server.js';
import { localModelPaths } from '../../platform/local-model/pins.js';
import { chooseLocalRuntime, startLocalServer } from '../../platform/local-model/runtime.js';
import { makeCalcProject } from '../support/calc-project.js';
import { startTestTask, taskOutcome, taskSpec, waitForState } from '../integration/support/tasks.js';
import { eventually, useTestTemporal } from '../integration/support/temporal.js';
import { tierLocalSpec, tierModel, tierOpenAISpec } from './tier-model.js';
import { expectNothingLeft, expectTruthfulEnd, isAlive, recordOutcome, writeBoundedRegistry } from './support.js';

const goal = 'Fix add in calc.py: it must return the sum of a and b';
const temporal = useTestTemporal('real-model');
const serverPids: number[] = [];

beforeAll(async () => {
  process.env.TASKLOOP_AGENTS_FILE = await writeBoundedRegistry(48);
});
afterAll(async () => {
  delete process.env.TASKLOOP_AGENTS_FILE;
  await stopOwnedLocalServer();
  // The worker's server is stopped with it: no llama-server of this test survives it.
  await eventually(
    'the local model servers to stop',
    async () => (serverPids.some(isAlive) ? undefined : true),
    15_000,
  );
});

async function rememberServer(): Promise<{ pid: number; port: number; baseURL: string }> {
  const server = await ownedLocalServer();
  if (!server) throw new Error('no owned local model server is running');
  if (!serverPids.includes(server.pid)) serverPids.push(server.pid);
  return server;
}

describe(`the local model through the worker (${tierLocalSpec})`, () => {
  it('answers a coder request well formed: a turn, usage counted, the tools rendered into the prompt', async () => {
    const create = () =>
      createModelProvider(tierLocalSpec, {
        role: 'coder',
        cwd: process.cwd(),
        parameters: { temperature: 0, maxTokens: 16 },
      });
    // Two activities asking at once share one server (no race for the port).
    const [provider] = await Promise.all([create(), create()]);
    await rememberServer();
    expect(serverPids).toHaveLength(1);
    const messages = [
      { role: 'system' as const, content: 'You fix Python code. Use the tools.' },
      { role: 'user' as const, content: 'Read calc.py.' },
    ];
    const tools = toolSpecsFor(['READ_REPOSITORY', 'WRITE_WORKTREE']);
    const withTools = await provider.complete({ role: 'coder', messages, tools });
    const withoutTools = await provider.complete({ role: 'coder', messages, tools: [] });

    expect(typeof withTools.content).toBe('string');
    expect(withTools.content.trim() !== '' || withTools.toolCalls.length > 0).toBe(true);
    for (const call of withTools.toolCalls) expect(typeof call.arguments).toBe('object');
    expect(withTools.usage?.outputTokens).toBeGreaterThan(0);
    expect(withTools.usage?.outputTokens).toBeLessThanOrEqual(16);
    // The template renders the tools (the server's fallback would drop them): each schema costs prompt tokens.
    expect(withTools.usage?.inputTokens ?? 0).toBeGreaterThan((withoutTools.usage?.inputTokens ?? 0) + 200);
  });

  it('runs a task to a truthful end within its budgets, counting usage, leaving no worktree or branch', async () => {
    const project = await makeCalcProject({});
    // One call allowed, two steps: the budget, not the step limit, ends the attempt unless the model finishes.
    const spec = taskSpec({
      repo: project.repo,
      goal,
      models: { coder: tierLocalSpec },
      maxRetries: 0,
      maxCoderSteps: 2,
      budgets: { maxModelCalls: 1 },
    });
    const started = Date.now();
    const outcome = await taskOutcome(await startTestTask(temporal.client, temporal.host.taskQueue, spec));
    await recordOutcome('task through the worker-owned server', outcome, Date.now() - started);

    expectTruthfulEnd(outcome);
    const spent = outcome.budget?.spent;
    expect(spent?.modelCalls).toBe(1);
    expect(spent?.inputTokens).toBeGreaterThan(1000);
    expect(spent?.outputTokens).toBeGreaterThan(0);
    // The call stops at the registry's 48 tokens.
    expect(spent?.outputTokens ?? 0).toBeLessThanOrEqual(48);
    if (outcome.status === 'FAILED') expect(outcome.recommendation).not.toBe('environment_problem');
    await expectNothingLeft(project.repo, outcome, temporal.host.workDir);
  });

  it('does not lose the task when the server is killed mid-turn: the worker starts it again on the same port', async () => {
    const project = await makeCalcProject({});
    const spec = taskSpec({
      repo: project.repo,
      goal,
      models: { coder: tierLocalSpec },
      maxRetries: 0,
      maxCoderSteps: 2,
    });
    const started = Date.now();
    const handle = await startTestTask(temporal.client, temporal.host.taskQueue, spec);
    await waitForState(handle, 'the coder to start', (state) => state.phase === 'code', 60_000);
    const killed = await rememberServer();
    await eventually(
      'a request in flight on the local model server',
      async () => ((await slotsBusy(killed.port)) ? true : undefined),
      60_000,
    );
    process.kill(killed.pid, 'SIGKILL');
    const outcome = await taskOutcome(handle);
    await recordOutcome('server killed mid-turn', outcome, Date.now() - started);

    const restarted = await rememberServer();
    expect(restarted.pid).not.toBe(killed.pid);
    expect(restarted.port).toBe(killed.port);
    expect(isAlive(killed.pid)).toBe(false);
    expectTruthfulEnd(outcome);
    // Not lost: the kill costs node reruns at most, never the task as an environment problem.
    expect(outcome.recommendation).not.toBe('environment_problem');
    expect(outcome.budget?.spent.modelCalls).toBeGreaterThan(0);
    // The coder's rerun (an activity retry or a node rerun) was answered by the restarted server.
    expect(await slotsServed(restarted.port)).toBeGreaterThan(0);
    await expectNothingLeft(project.repo, outcome, temporal.host.workDir);
  });

  it('fails with one clear environment problem naming the base URL when the server is down at start', async () => {
    const port = await findFreePort();
    const baseURL = `http://127.0.0.1:${port}/v1`;
    process.env.TASKLOOP_CODER_OPENAI_BASE_URL = baseURL;
    try {
      const project = await makeCalcProject({});
      const spec = taskSpec({ repo: project.repo, goal, models: { coder: tierOpenAISpec } });
      const started = Date.now();
      const outcome = await taskOutcome(await startTestTask(temporal.client, temporal.host.taskQueue, spec));
      await recordOutcome('server down at start', outcome, Date.now() - started);

      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('environment_problem');
      expect(outcome.attempts).toHaveLength(1);
      expect(outcome.reason).toContain(baseURL);
      expect(outcome.budget?.spent.outputTokens ?? 0).toBe(0);
      // A server refusing the first connection is down: no minutes of waiting, with the default 5 min bound.
      expect(Date.now() - started).toBeLessThan(60_000);
      await expectNothingLeft(project.repo, outcome, temporal.host.workDir);
    } finally {
      delete process.env.TASKLOOP_CODER_OPENAI_BASE_URL;
    }
  });

  it('fails with a typed ContextOverflow naming the window and the setting when the server holds too small a context', async () => {
    const paths = localModelPaths(process.env, tierModel);
    const port = await findFreePort();
    // 1,024 tokens: less than the system prompt and the tools' schemas alone, so nothing fitted can fit.
    const server = await startLocalServer(chooseLocalRuntime(), {
      model: paths.model,
      port,
      ctx: 1024,
      alias: tierModel.name,
    });
    process.env.TASKLOOP_CODER_OPENAI_BASE_URL = server.baseURL;
    try {
      const project = await makeCalcProject({});
      const spec = taskSpec({ repo: project.repo, goal, models: { coder: tierOpenAISpec }, maxRetries: 0 });
      const started = Date.now();
      const outcome = await taskOutcome(await startTestTask(temporal.client, temporal.host.taskQueue, spec));
      await recordOutcome('context too small (-c 1024)', outcome, Date.now() - started);

      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('environment_problem');
      expect(outcome.attempts).toHaveLength(1);
      expect(outcome.attempts[0]?.failure?.cause?.kind).toBe('ContextOverflow');
      // The window the server reported, and a setting that changes it.
      expect(outcome.reason).toContain('1024');
      expect(outcome.reason).toMatch(/CONTEXT_WINDOW|ctx/);
      await expectNothingLeft(project.repo, outcome, temporal.host.workDir);
    } finally {
      delete process.env.TASKLOOP_CODER_OPENAI_BASE_URL;
      await server.stop();
    }
  });
});

/** The server's /slots (llama-server's, and the node-llama-cpp server's same fields): true while a request runs. */
async function slotsBusy(port: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/slots`).catch(() => undefined);
  if (!response?.ok) return false;
  const slots = (await response.json()) as { is_processing?: boolean }[];
  return slots.some((slot) => slot.is_processing === true);
}

/** Prompt tokens of the last request the server's slot took (0 before any). */
async function slotsServed(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/slots`);
  const slots = (await response.json()) as { n_prompt_tokens?: number }[];
  return Math.max(0, ...slots.map((slot) => slot.n_prompt_tokens ?? 0));
}
