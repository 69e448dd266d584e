import { afterEach, describe, expect, it } from 'vitest';
import {
  llamaContext,
  ollamaContext,
  OLLAMA_DEFAULT_NUM_CTX,
  readServerContextWindow,
  serverRoot,
} from '../../../../activities/models/server-context.js';
import { startLocalModelServer, type LocalModelServer } from './support/local-model-server.js';

let server: LocalModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('readServerContextWindow', () => {
  it("reads llama.cpp's n_ctx from GET /props at the server's root", async () => {
    server = await startLocalModelServer([
      { path: '/props', body: { default_generation_settings: { n_ctx: 2048 }, total_slots: 1 } },
    ]);
    expect(await readServerContextWindow({ baseURL: `${server.url}/v1`, model: 'gemma' })).toBe(2048);
    expect(server.probes.map((seen) => seen.path)).toEqual(['/props']);
  });

  it("falls back to Ollama's POST /api/show, naming the model", async () => {
    server = await startLocalModelServer([
      {
        path: '/api/show',
        body: { parameters: 'stop "<end>"\nnum_ctx 8192', model_info: { 'llama.context_length': 131072 } },
      },
    ]);
    expect(await readServerContextWindow({ baseURL: `${server.url}/v1/`, model: 'qwen' })).toBe(8192);
    expect(server.probes[1]).toMatchObject({ path: '/api/show', body: { model: 'qwen' } });
  });

  it('says nothing for a server that reports neither', async () => {
    server = await startLocalModelServer();
    expect(await readServerContextWindow({ baseURL: server.url, model: 'm' })).toBeUndefined();
  });
});

describe('the bodies', () => {
  it('reads n_ctx at the top level of newer llama.cpp servers', () => {
    expect(llamaContext({ n_ctx: 4096 })).toBe(4096);
    expect(llamaContext({ n_ctx: 'big' })).toBeUndefined();
  });

  it("takes Ollama's default within the trained length when a model sets no num_ctx", () => {
    expect(ollamaContext({ parameters: '', model_info: { 'gemma3.context_length': 32768 } })).toBe(
      OLLAMA_DEFAULT_NUM_CTX,
    );
    expect(ollamaContext({ model_info: { 'tiny.context_length': 2048 } })).toBe(2048);
  });

  it('strips the /v1 suffix to find the root', () => {
    expect(serverRoot('http://127.0.0.1:8080/v1/')).toBe('http://127.0.0.1:8080');
  });
});
