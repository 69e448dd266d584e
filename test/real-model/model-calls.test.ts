// What a local-model user met in real runs (issue 44), against the real local runtime serving the tier's model: a failed
// call is counted, a cancel stops the server's generation, and the model that really answered is recorded.
// Each test bounds the model's work (it generates about 10 to 30 tokens/s here) and the time it waits.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningModelServer } from '../../platform/local-model/owned-process.js';
import { localModelPaths } from '../../platform/local-model/pins.js';
import { chooseLocalRuntime, startLocalServer } from '../../platform/local-model/runtime.js';
import { findFreePort } from '../../platform/server/ports.js';
import { makeCalcProject } from '../support/calc-project.js';
import { runTaskloop } from '../support/cli.js';
import { startTestTask, taskOutcome, taskSpec } from '../integration/support/tasks.js';
import { eventually, useTestTemporal } from '../integration/support/temporal.js';
import { tierModel, tierOpenAISpec } from './tier-model.js';
import { expectNothingLeft, expectTruthfulEnd, recordOutcome, writeBoundedRegistry } from './support.js';

const goal = 'Fix add in calc.py: it must return the sum of a and b';
const temporal = useTestTemporal('real-model-calls');
let server: RunningModelServer;
let logFile: string;

beforeAll(async () => {
  const paths = localModelPaths(process.env, tierModel);
  logFile = path.join(os.tmpdir(), `real-model-calls-${process.pid}.log`);
  server = await startLocalServer(chooseLocalRuntime(), {
    model: paths.model,
    port: await findFreePort(),
    ctx: 8192,
    logFile,
    alias: tierModel.name,
  });
  process.env.TASKLOOP_CODER_OPENAI_BASE_URL = server.baseURL;
});
afterAll(async () => {
  delete process.env.TASKLOOP_CODER_OPENAI_BASE_URL;
  delete process.env.TASKLOOP_AGENTS_FILE;
  await server?.stop();
});

/** The server's one slot: whether it is working on a request, and the tokens it has generated for it. */
async function slot(): Promise<{ processing: boolean; decoded: number }> {
  const response = await fetch(`http://127.0.0.1:${server.port}/slots`);
  const [first] = (await response.json()) as { is_processing?: boolean; next_token?: { n_decoded?: number }[] }[];
  return { processing: first?.is_processing === true, decoded: first?.next_token?.[0]?.n_decoded ?? 0 };
}

/** Polled every 1.5 s: a request polled more often than every second is never seen cancelled (see the cancel test). */
async function idle(what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await slot()).processing) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }
}

describe(`model calls against the real local runtime (${chooseLocalRuntime()})`, () => {
  it('records the model that answered when the server answers as another than the one asked for', async () => {
    // Reading tools only: a shorter prompt for the server to read (what answered is all this test needs).
    process.env.TASKLOOP_AGENTS_FILE = await writeBoundedRegistry(16, ['READ_REPOSITORY', 'WRITE_WORKTREE']);
    const project = await makeCalcProject({});
    // llama-server takes any model name and answers as its own (`--alias qwen2.5-coder-0.5b`).
    const spec = taskSpec({
      repo: project.repo,
      goal,
      models: { coder: 'openai:no-such-model' },
      maxRetries: 0,
      maxCoderSteps: 2,
      budgets: { maxModelCalls: 1 },
    });
    const started = Date.now();
    const outcome = await taskOutcome(await startTestTask(temporal.client, temporal.host.taskQueue, spec));
    await recordOutcome('answering model recorded', outcome, Date.now() - started);

    expectTruthfulEnd(outcome);
    expect(outcome.attempts[0]?.coder?.answeredBy).toEqual([tierModel.name]);
    expect(outcome.budget?.spent.modelCalls).toBe(1);
    await expectNothingLeft(project.repo, outcome, temporal.host.workDir);
  });

  it("counts a call that fails (a timeout) in the outcome's telemetry and budget", async () => {
    // 400 tokens cannot come within 2 s (the prompt alone takes seconds): every call times out, and is aborted.
    process.env.TASKLOOP_AGENTS_FILE = await writeBoundedRegistry(400);
    process.env.TASKLOOP_MODEL_TIMEOUT_MS = '2000';
    try {
      const project = await makeCalcProject({});
      const spec = taskSpec({
        repo: project.repo,
        goal,
        models: { coder: tierOpenAISpec },
        maxRetries: 0,
        envRetryLimit: 0,
      });
      const started = Date.now();
      const outcome = await taskOutcome(await startTestTask(temporal.client, temporal.host.taskQueue, spec));
      await recordOutcome('failed calls counted (2 s timeout)', outcome, Date.now() - started);

      expect(outcome.status).toBe('FAILED');
      expect(outcome.reason).toContain('did not answer within 2000 ms');
      const { telemetry } = outcome;
      expect(telemetry.failed_model_requests).toBeGreaterThanOrEqual(1);
      expect(telemetry.model_requests_per_task).toBe(telemetry.failed_model_requests);
      // A call that got no usage back counts no tokens (no estimate), only as a request whose tokens are unknown.
      expect(telemetry.input_tokens).toBe(0);
      expect(telemetry.output_tokens).toBe(0);
      expect(telemetry.unmetered_model_requests).toBe(telemetry.failed_model_requests);
      expect(outcome.budget?.spent.modelCalls).toBe(telemetry.failed_model_requests);
      await expectNothingLeft(project.repo, outcome, temporal.host.workDir);
    } finally {
      delete process.env.TASKLOOP_MODEL_TIMEOUT_MS;
    }
    // The client's abort reaches the server at once (its log: `stop: cancel task` 2 s after the start), but llama-server
    // honours it only once the prompt batch it is reading is done: 38 s for the 0.5B's 2.2k tokens here at load 10.
    await idle('the timed-out generation to stop', 120_000);
  });

  it('stops the server generating within seconds of `taskloop cancel`', async () => {
    // 2,000 tokens would take minutes: only the cancel can end this generation soon.
    process.env.TASKLOOP_AGENTS_FILE = await writeBoundedRegistry(2000);
    await idle('the server to be idle', 30_000);
    const project = await makeCalcProject({});
    const spec = taskSpec({ repo: project.repo, goal, models: { coder: tierOpenAISpec }, maxRetries: 0 });
    const handle = await startTestTask(temporal.client, temporal.host.taskQueue, spec);
    const generating = await eventually(
      'the server to generate the coder reply',
      async () => {
        const now = await slot();
        return now.processing && now.decoded >= 5 ? now : undefined;
      },
      90_000,
    );
    const logBefore = (await readFile(logFile, 'utf8')).length;
    const cancelAt = Date.now();
    const cancel = await runTaskloop(['cancel', handle.workflowId, '--reason', 'real-model cancel test'], {
      env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') },
    });
    expect(cancel.exitCode, cancel.all).toBe(0);
    const sentAt = Date.now();
    // Watched in the server's log, not by polling /slots: llama-server notices a client gone only after a second
    // without other requests (each /slots answer wakes the waiting request and restarts that second).
    const ended = await eventually(
      "the server's log to show the request cancelled and its slot released",
      async () => {
        const log = (await readFile(logFile, 'utf8')).slice(logBefore);
        // llama-server's lines, or the node-llama-cpp server's one.
        return /stop: cancel task[\s\S]*release:.*stop processing|cancelled \(client gone\), slot released/.test(log)
          ? Date.now()
          : undefined;
      },
      30_000,
    );
    const outcome = await taskOutcome(handle);
    console.log(
      `[real-model] cancel: ${generating.decoded} tokens generated when cancelled; the CLI took ` +
        `${sentAt - cancelAt} ms; the server ended the request ${ended - sentAt} ms after it returned`,
    );

    expect(outcome.status).toBe('CANCELLED');
    expect(ended - sentAt).toBeLessThan(5_000);
    expect((await slot()).processing).toBe(false);
    await expectNothingLeft(project.repo, outcome, temporal.host.workDir);
  });
});
