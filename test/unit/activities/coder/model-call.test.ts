import { afterEach, describe, expect, it } from 'vitest';
import { callModel } from '../../../../activities/coder/model-call.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { emptyTelemetry } from '../../../../domain/telemetry.js';
import {
  chatReply,
  startLocalModelServer,
  type LocalModelServer,
} from '../../activities/models/support/local-model-server.js';

const request = { role: 'coder' as const, messages: [{ role: 'user' as const, content: 'fix add' }], tools: [] };
let server: LocalModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A loopback URL nothing listens on (a server started and closed again). */
async function deadUrl(): Promise<string> {
  const probe = await startLocalModelServer();
  await probe.close();
  return probe.url;
}

const providerAt = (url: string) =>
  createModelProvider('openai:gemma', {
    role: 'coder',
    cwd: '/',
    env: { OPENAI_BASE_URL: `${url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '5000' },
  });

describe('callModel', () => {
  it('counts a request and its usage when the reply comes', async () => {
    server = await startLocalModelServer([{ body: chatReply('ok', [], { prompt_tokens: 40, completion_tokens: 4 }) }]);
    const telemetry = emptyTelemetry();
    const provider = await providerAt(server.url);
    await callModel({ provider, request, telemetry, waitBoundMs: 1_000 });
    expect(telemetry).toMatchObject({ modelRequests: 1, failedModelRequests: 0, inputTokens: 40, outputTokens: 4 });
  });

  it('counts a failed request as one whose tokens are unknown (no guess in the totals), and hands the error to the heartbeat', async () => {
    server = await startLocalModelServer([{ status: 401, body: { error: { message: 'bad key' } } }]);
    const telemetry = emptyTelemetry();
    const errors: (string | undefined)[] = [];
    const provider = await providerAt(server.url);
    const call = callModel({ provider, request, telemetry, waitBoundMs: 1_000, heartbeat: (e) => errors.push(e) });
    await expect(call).rejects.toMatchObject({ type: 'ProviderAuthFailed' });
    expect(telemetry).toMatchObject({
      modelRequests: 1,
      failedModelRequests: 1,
      unmeteredModelRequests: 1,
      inputTokens: 0,
      outputTokens: 0,
    });
    expect(errors.at(-1)).toMatch(/refused the credentials \(401\)/);
  });

  it('a reply without usage counts no tokens: the request is counted as unmetered, the reported ones add up', async () => {
    const { usage: _none, ...withoutUsage } = chatReply('no usage here');
    server = await startLocalModelServer([
      { body: withoutUsage },
      { body: chatReply('measured', [], { prompt_tokens: 40, completion_tokens: 4 }) },
    ]);
    const telemetry = emptyTelemetry();
    const provider = await providerAt(server.url);
    await callModel({ provider, request, telemetry, waitBoundMs: 1_000 });
    await callModel({ provider, request, telemetry, waitBoundMs: 1_000 });
    expect(telemetry).toMatchObject({ modelRequests: 2, unmeteredModelRequests: 1, inputTokens: 40, outputTokens: 4 });
  });

  it('waits out a server that restarts (unreachable, then 503 while loading), counted apart', async () => {
    const url = await deadUrl();
    const provider = await providerAt(url);
    const telemetry = emptyTelemetry();
    const restart = new Promise<LocalModelServer>((resolve) => {
      setTimeout(() => {
        const replies = [{ status: 503, body: { error: { message: 'Loading model' } } }, { body: chatReply('back') }];
        resolve(startLocalModelServer(replies, Number(new URL(url).port)));
      }, 1_200);
    });
    const turn = await callModel({ provider, request, telemetry, waitBoundMs: 20_000 });
    server = await restart;
    expect(turn.content).toBe('back');
    expect(server.requests).toHaveLength(2);
    expect(telemetry.failedModelRequests).toBeGreaterThanOrEqual(2);
    expect(telemetry.modelServerWaits).toBe(telemetry.failedModelRequests);
    expect(telemetry.modelRequests).toBe((telemetry.failedModelRequests ?? 0) + 1);
  });

  it('fails once, non-retryable, naming the base URL, when the server stays down for the whole bound', async () => {
    const url = await deadUrl();
    const telemetry = emptyTelemetry();
    const provider = await providerAt(url);
    const started = Date.now();
    const failure = await callModel({ provider, request, telemetry, waitBoundMs: 2_500 }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: 'ModelServerDown', nonRetryable: true });
    expect((failure as Error).message).toContain(`${url}/v1`);
    expect((failure as Error).message).toContain('TASKLOOP_MODEL_WAIT_MS');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
    expect(telemetry.modelServerWaits).toBeGreaterThanOrEqual(2);
    expect(telemetry.modelRequests).toBe((telemetry.modelServerWaits ?? 0) + 1);
  });

  it('tells a server answering 500 from one that cannot be reached: three tries, then ModelServerError with its status and message', async () => {
    const error = { status: 500, body: { error: { message: 'failed to decode the prompt' } } };
    server = await startLocalModelServer([error, error, error, error]);
    const telemetry = emptyTelemetry();
    const provider = await providerAt(server.url);
    const started = Date.now();
    const failure = await callModel({ provider, request, telemetry, waitBoundMs: 300_000 }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: 'ModelServerError', nonRetryable: true });
    const message = (failure as Error).message;
    expect(message).toContain('is answering with an error (HTTP 500; 3 tries');
    expect(message).toContain('failed to decode the prompt');
    expect(message).not.toContain('could not be reached');
    expect(server.requests).toHaveLength(3);
    // 1 s and 2 s between the tries, not the 5-minute bound an unreachable server gets.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(telemetry).toMatchObject({ modelRequests: 3, failedModelRequests: 3, modelServerWaits: 2 });
  });

  it('waits out a 503 (a model loading) up to a minute at most, less than an unreachable server gets', async () => {
    server = await startLocalModelServer(
      Array.from({ length: 10 }, () => ({ status: 503, body: { error: { message: 'Loading model' } } })),
    );
    const provider = await providerAt(server.url);
    const failure = await callModel({ provider, request, telemetry: emptyTelemetry(), waitBoundMs: 2_500 }).catch(
      (e: unknown) => e,
    );
    expect(failure).toMatchObject({ type: 'ModelServerError' });
    expect((failure as Error).message).toMatch(
      /answering with an error \(HTTP 503; \d+ tries over \d+ s; last: .*Loading model/,
    );
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('stops waiting as soon as the task is cancelled', async () => {
    const provider = await providerAt(await deadUrl());
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 300);
    const call = callModel({
      provider,
      request,
      telemetry: emptyTelemetry(),
      waitBoundMs: 60_000,
      signal: controller.signal,
    });
    await expect(call).rejects.toThrow('cancelled');
  });
});
