// Model calls are bounded by taskloop's own timeout only (issue 52): Node's fetch (undici) cut every request at 300 s
// (its headersTimeout), whatever TASKLOOP_MODEL_TIMEOUT_MS said, and the failure then blamed that timeout. Scaled
// down here: undici's global limits are set to 300 ms (standing in for its 300 s default), the server answers after
// 1.5 s, and taskloop's timeout is 20 s.
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../../activities/models/anthropic.js';
import { boundedHttp } from '../../../../activities/models/http-client.js';
import { createOpenAIProvider } from '../../../../activities/models/openai.js';
import { resolveEndpoint } from '../../../../activities/models/provider-env.js';
import type { CompletionRequest } from '../../../../activities/models/types.js';
import {
  chatReply,
  messagesReply,
  startLocalModelServer,
  type LocalModelServer,
} from './support/local-model-server.js';

const request: CompletionRequest = { role: 'coder', messages: [{ role: 'user', content: 'fix add' }], tools: [] };
const SLOW_MS = 1_500;
let server: LocalModelServer;
let saved: Dispatcher;
let shortDefault: Agent;

beforeAll(async () => {
  server = await startLocalModelServer();
  saved = getGlobalDispatcher();
  // What Node's own fetch would use: limits shorter than the server's answer (its 300 s, scaled to 300 ms).
  shortDefault = new Agent({ headersTimeout: 300, bodyTimeout: 300 });
  setGlobalDispatcher(shortDefault);
});
afterAll(async () => {
  setGlobalDispatcher(saved);
  await shortDefault.close();
  await server.close();
});
afterEach(() => {
  expect(server.requests.length).toBeGreaterThan(0);
  server.requests.length = 0;
});

const env = (vendor: 'OPENAI' | 'ANTHROPIC') => ({
  [`${vendor}_BASE_URL`]: vendor === 'OPENAI' ? `${server.url}/v1` : server.url,
  TASKLOOP_MODEL_TIMEOUT_MS: '20000',
});

describe('a model call slower than the HTTP client library allows by default', () => {
  it('is answered through the openai provider: only taskloop’s timeout bounds it', async () => {
    server.push({ body: chatReply('done'), delayMs: SLOW_MS });
    const provider = createOpenAIProvider({
      model: 'm',
      role: 'coder',
      endpoint: resolveEndpoint('openai', 'coder', env('OPENAI')),
    });
    const turn = await provider.complete(request);
    expect(turn.content).toBe('done');
  });

  it('is answered through the anthropic provider too', async () => {
    server.push({ body: messagesReply('done'), delayMs: SLOW_MS });
    const provider = createAnthropicProvider({
      model: 'm',
      role: 'coder',
      endpoint: resolveEndpoint('anthropic', 'coder', env('ANTHROPIC')),
    });
    expect((await provider.complete(request)).content).toBe('done');
  });

  it('names the HTTP client’s limit, not taskloop’s timeout, when that limit ends a call', async () => {
    server.push({ body: chatReply('too late'), delayMs: SLOW_MS });
    const provider = createOpenAIProvider({
      model: 'm',
      role: 'coder',
      endpoint: resolveEndpoint('openai', 'coder', env('OPENAI')),
      // Limits set below the call's timeout, as a library default would be.
      http: boundedHttp(() => ({ headersTimeoutMs: 300, bodyTimeoutMs: 300 })),
    });
    const failure = provider.complete(request);
    await expect(failure).rejects.toThrow(
      /the HTTP client's headers timeout of 300 ms ended the call after \d+ ms, before taskloop's own timeout of 20000 ms \(fixed by TASKLOOP_MODEL_TIMEOUT_MS\)/,
    );
    await expect(failure).rejects.not.toThrow(/did not answer within/);
  });

  it('still says "did not answer within" when taskloop’s own timeout ends the call', async () => {
    server.push({ body: chatReply('too late'), delayMs: SLOW_MS });
    const provider = createOpenAIProvider({
      model: 'm',
      role: 'coder',
      endpoint: resolveEndpoint('openai', 'coder', { ...env('OPENAI'), TASKLOOP_MODEL_TIMEOUT_MS: '400' }),
    });
    await expect(provider.complete(request)).rejects.toThrow(/did not answer within 400 ms/);
  });
});
