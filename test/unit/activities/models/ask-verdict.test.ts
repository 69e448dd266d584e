import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askForVerdict } from '../../../../activities/models/ask-verdict.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { emptyTelemetry } from '../../../../domain/telemetry.js';
import { chatReply, startLocalModelServer, type LocalModelServer } from './support/local-model-server.js';

async function reviewer(turns: { content: string }[]) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
  await writeFile(path.join(dir, 'script.json'), JSON.stringify({ reviewer: turns }));
  return createModelProvider('scripted:script.json', { role: 'reviewer', cwd: dir });
}

let server: LocalModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const reviewerAt = (url: string) =>
  createModelProvider('openai:gemma', {
    role: 'reviewer',
    cwd: '/',
    env: { OPENAI_BASE_URL: `${url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '20000' },
  });

describe('askForVerdict', () => {
  it('returns a valid verdict at the first ask', async () => {
    const provider = await reviewer([{ content: '{"verdict":"fail","findings":[{"file":"a.py","reason":"bad"}]}' }]);
    const reply = await askForVerdict({ provider, role: 'reviewer', question: 'diff' });
    expect(reply).toMatchObject({
      ok: true,
      verdict: { verdict: 'fail', findings: [{ file: 'a.py', reason: 'bad' }] },
      usage: { modelRequests: 1 },
    });
  });

  it('asks once more after a malformed verdict and accepts the corrected one', async () => {
    const provider = await reviewer([{ content: 'LGTM!' }, { content: '{"verdict":"pass"}' }]);
    expect(await askForVerdict({ provider, role: 'reviewer', question: 'diff' })).toMatchObject({
      ok: true,
      verdict: { verdict: 'pass' },
      usage: { modelRequests: 2 },
    });
  });

  it('gives a model problem, never a pass, after two malformed verdicts', async () => {
    const provider = await reviewer([
      { content: '{"verdict": pass}' },
      { content: 'pass' },
      { content: '{"verdict":"pass"}' },
    ]);
    const reply = await askForVerdict({ provider, role: 'reviewer', question: 'diff' });
    expect(reply).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^model problem: the reviewer gave no valid verdict after 2 asks/),
      usage: { modelRequests: 2 },
    });
  });

  it('counts a failed request, waits out a server loading its model, then takes the verdict', async () => {
    server = await startLocalModelServer([
      { status: 503, body: { error: { message: 'Loading model' } } },
      { body: chatReply('{"verdict":"pass"}', [], { prompt_tokens: 30, completion_tokens: 5 }) },
    ]);
    const counters = emptyTelemetry();
    const reply = await askForVerdict({
      provider: await reviewerAt(server.url),
      role: 'reviewer',
      question: 'diff',
      counters,
      waitBoundMs: 10_000,
    });
    expect(reply).toMatchObject({
      ok: true,
      usage: { modelRequests: 2, failedModelRequests: 1, modelServerWaits: 1, outputTokens: 5 },
    });
    // The failed request got no usage back: its tokens are unknown, counted apart, never guessed into the total.
    expect(reply.usage.inputTokens).toBe(30);
    expect(reply.usage.unmeteredModelRequests).toBe(1);
    expect(counters.modelRequests).toBe(2);
  });

  it('fails as ModelServerError (answering 503) after the wait it is given, its requests counted in the counters', async () => {
    server = await startLocalModelServer([503, 503, 503, 503].map((status) => ({ status, body: {} })));
    const counters = emptyTelemetry();
    const asked = askForVerdict({
      provider: await reviewerAt(server.url),
      role: 'judge',
      question: 'diff',
      counters,
      waitBoundMs: 1_500,
    });
    const failure = await asked.catch((error: unknown) => error);
    expect(failure).toMatchObject({ type: 'ModelServerError', nonRetryable: true });
    expect((failure as Error).message).toContain('is answering with an error (HTTP 503');
    expect((failure as Error).message).toContain('models.judge.serverWaitMs');
    expect(counters.modelRequests).toBeGreaterThanOrEqual(2);
    expect(counters.failedModelRequests).toBe(counters.modelRequests);
  });

  it('aborts the request the server is answering when the activity is cancelled', async () => {
    server = await startLocalModelServer([{ body: chatReply('{"verdict":"pass"}'), delayMs: 15_000 }]);
    const controller = new AbortController();
    const asked = askForVerdict({
      provider: await reviewerAt(server.url),
      role: 'reviewer',
      question: 'diff',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('cancelled')), 300);
    // The server never answers: without the abort the call would hang until the test's timeout.
    await expect(asked).rejects.toThrow('cancelled');
    // The server saw its client go: the HTTP request itself was aborted, not only awaited no longer.
    await expect.poll(() => server?.requests[0]?.abortedAt, { timeout: 3_000 }).toBeDefined();
  });
});
