// taskloop's node-llama-cpp server (the default local runtime), run as the worker runs it, against the worker's own
// OpenAI provider with the tier's real model: usage counted, the context reported where the worker reads it, a
// cancelled request stopping generation, a bad request refused, and a killed server started again on its port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSpecsFor } from '../../activities/coder/tools/registry.js';
import { createOpenAIProvider } from '../../activities/models/openai.js';
import {
  ensureOwnedLocalServer,
  ownedLocalServer,
  stopOwnedLocalServer,
} from '../../platform/local-model/owned-server.js';
import type { RunningModelServer } from '../../platform/local-model/owned-process.js';
import { localModelPaths } from '../../platform/local-model/pins.js';
import { startLocalServer } from '../../platform/local-model/runtime.js';
import { findFreePort } from '../../platform/server/ports.js';
import { eventually } from '../integration/support/temporal.js';
import { tierModel } from './tier-model.js';
import { isAlive } from './support.js';

let server: RunningModelServer;

beforeAll(async () => {
  server = await startLocalServer('node-llama-cpp', {
    model: localModelPaths(process.env, tierModel).model,
    port: await findFreePort(),
    ctx: 6144,
    alias: tierModel.name,
  });
});
afterAll(async () => {
  await server?.stop();
  await stopOwnedLocalServer();
});

const provider = (maxTokens: number) =>
  createOpenAIProvider({
    model: tierModel.name,
    role: 'coder',
    // A prompt with the tools' schemas is about 2.7k tokens: minutes to read on 2 cores shared with other work.
    endpoint: {
      baseURL: server.baseURL,
      keyVariable: 'OPENAI_API_KEY',
      baseVariable: 'OPENAI_BASE_URL',
      timeoutMs: 400_000,
    },
    parameters: { temperature: 0, maxTokens },
  });

const messages = [
  { role: 'system' as const, content: 'You fix Python code. Use the tools.' },
  { role: 'user' as const, content: 'Read calc.py.' },
];

async function slot(): Promise<{ processing: boolean; decoded: number }> {
  const [first] = (await (await fetch(`http://127.0.0.1:${server.port}/slots`)).json()) as {
    is_processing: boolean;
    next_token: { n_decoded: number }[];
  }[];
  return { processing: first?.is_processing === true, decoded: first?.next_token[0]?.n_decoded ?? 0 };
}

describe('the node-llama-cpp server against the worker provider', () => {
  it('answers with usage, renders the tools, names its model and reports its context where the worker reads it', async () => {
    const models = (await (await fetch(`${server.baseURL}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual([tierModel.name]);
    const coder = provider(16);
    expect(await coder.serverContextWindow?.()).toBe(6144);

    const tools = toolSpecsFor(['READ_REPOSITORY', 'WRITE_WORKTREE']);
    const withTools = await coder.complete({ role: 'coder', messages, tools });
    const withoutTools = await coder.complete({ role: 'coder', messages, tools: [] });
    expect(withTools.content.trim() !== '' || withTools.toolCalls.length > 0).toBe(true);
    expect(withTools.model).toBe(tierModel.name);
    expect(withTools.usage?.outputTokens).toBeGreaterThan(0);
    expect(withTools.usage?.outputTokens).toBeLessThanOrEqual(16);
    // The GGUF's template renders the tools: each schema costs prompt tokens.
    expect(withTools.usage?.inputTokens ?? 0).toBeGreaterThan((withoutTools.usage?.inputTokens ?? 0) + 200);
  });

  it('stops generating within seconds of the client going away', async () => {
    const abort = new AbortController();
    const call = provider(2000).complete({ role: 'coder', messages, tools: [], signal: abort.signal });
    const settled = call.then(
      () => 'answered',
      () => 'failed',
    );
    await eventually('the server to generate', async () => ((await slot()).decoded >= 3 ? true : undefined), 120_000);
    const abortedAt = Date.now();
    abort.abort();
    await eventually('the generation to stop', async () => ((await slot()).processing ? undefined : true), 10_000);
    console.log(`[real-model] node-llama-cpp cancel: slot released ${Date.now() - abortedAt} ms after the abort`);
    expect(await settled).toBe('failed');
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
  });

  it('refuses a bad request with a 400 naming the field, and a prompt over its context as a context error', async () => {
    const bad = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }], temperature: 9 }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('temperature');
    const long = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: 'word '.repeat(7000) }] }),
    });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: { message: string } }).error.message).toContain(
      'exceeds the available context size',
    );
  });

  it('is started by the worker for local: and started again on the same port after a crash', async () => {
    const first = await ensureOwnedLocalServer(tierModel.name);
    const killed = await ownedLocalServer(tierModel.name);
    if (!killed) throw new Error('no owned server');
    process.kill(killed.pid, 'SIGKILL');
    await eventually('the killed server to be gone', async () => (isAlive(killed.pid) ? undefined : true), 10_000);
    // The worker's process is untouched, and its next use starts the server again at the same base URL.
    expect(await ensureOwnedLocalServer(tierModel.name)).toBe(first);
    const restarted = await ownedLocalServer(tierModel.name);
    expect(restarted?.pid).not.toBe(killed.pid);
    const models = (await (await fetch(`${first}/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0]?.id).toBe(tierModel.name);
  });
});
