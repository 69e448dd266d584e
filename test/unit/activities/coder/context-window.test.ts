import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import {
  chatReply,
  startLocalModelServer,
  type LocalModelServer,
  type ScriptedReply,
} from '../models/support/local-model-server.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

let server: LocalModelServer;
let t: TempRepo;
beforeEach(async () => {
  server = await startLocalModelServer();
  // A repository whose map and files are far larger than a small window.
  const files: Record<string, string> = { 'calc.py': 'def add(a, b):\n    return a - b\n' };
  for (let i = 0; i < 60; i++) files[`pkg/module_${i}.py`] = `VALUE_${i} = ${i}\n`.repeat(40);
  t = await createTempRepo(files);
});
afterEach(async () => {
  await server.close();
  await t.cleanup();
});

const props = (nCtx: number): ScriptedReply => ({
  path: '/props',
  body: { default_generation_settings: { n_ctx: nCtx } },
});
const contextError = (detail: string): ScriptedReply => ({
  status: 400,
  body: { error: { code: 400, message: detail, type: 'exceed_context_size_error' } },
});

async function input(): Promise<RunCoderInput> {
  const env = { OPENAI_BASE_URL: `${server.url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '5000' };
  const provider = await createModelProvider('openai:gemma', {
    role: 'coder',
    cwd: '/',
    env,
    parameters: { maxTokens: 256 },
  });
  return {
    worktreePath: t.repo,
    goal: 'Fix add in calc.py',
    provider,
    maxSteps: 3,
    previousAttempts: [],
    secretValues: [],
    artifactDir: t.artifacts,
    hostId: 'h',
    contextWindowNames: ['TASKLOOP_CODER_CONTEXT_WINDOW', 'TASKLOOP_CONTEXT_WINDOW'],
  };
}

const chatRequests = () => server.requests.filter((seen) => seen.path.endsWith('/chat/completions'));
const promptChars = (index: number) => JSON.stringify(chatRequests()[index]?.body.messages ?? []).length;

describe('the coder fitted to the context window', () => {
  it('fits the first prompt to the window the server reports (llama.cpp /props), asked once', async () => {
    server.push(props(4096), { body: chatReply('', [{ name: 'finish', arguments: { summary: 'done' } }]) });
    const result = await runCoder(await input());
    expect(result.status).toBe('finished');
    expect(server.probes.filter((seen) => seen.path === '/props')).toHaveLength(1);
    // 4096 tokens less 256 for the reply, less the margin: at most ~3070 tokens (~12 300 characters) of prompt.
    expect(promptChars(0)).toBeLessThan(12_300 + JSON.stringify(chatRequests()[0]?.body.tools).length);
    expect(JSON.stringify(chatRequests()[0]?.body.messages)).toContain('Fix add in calc.py');
  });

  it('fails before any model request, naming the window and the fix, when not even the goal fits', async () => {
    server.push(props(512));
    const failure = await runCoder(await input()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ type: 'ContextOverflow', nonRetryable: true });
    expect((failure as Error).message).toMatch(/context window of 512 tokens \(from the model server's own report\)/);
    expect((failure as Error).message).toContain('llama-server -c 8192');
    expect(chatRequests()).toHaveLength(0);
  });

  it("refits once to the window the server's context error names, then asks again", async () => {
    const setting = { tokens: 32_000, name: 'TASKLOOP_CONTEXT_WINDOW' };
    server.push(
      contextError('request (9000 tokens) exceeds the available context size (4096 tokens), try increasing it'),
      { body: chatReply('', [{ name: 'finish', arguments: { summary: 'done' } }]) },
    );
    const result = await runCoder({ ...(await input()), contextWindow: setting });
    expect(result).toMatchObject({ status: 'finished', telemetry: { modelRequests: 2, failedModelRequests: 1 } });
    expect(promptChars(1)).toBeLessThan(promptChars(0));
  });

  it('fails as ContextOverflow naming the window, the prompt and the setting when the refit prompt is refused too', async () => {
    const detail = 'the request exceeds the available context size, try increasing it';
    server.push(contextError(detail), contextError(detail));
    const failure = await runCoder({
      ...(await input()),
      contextWindow: { tokens: 16_000, name: 'TASKLOOP_CODER_CONTEXT_WINDOW' },
    }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ type: 'ContextOverflow', nonRetryable: true });
    const message = (failure as Error).message;
    expect(message).toMatch(/prompt \(about \d+ tokens, with 256 kept for the reply\)/);
    expect(message).toContain('context window of 12000 tokens');
    expect(message).toContain('set TASKLOOP_CODER_CONTEXT_WINDOW or TASKLOOP_CONTEXT_WINDOW');
    expect(message).toContain(detail);
  });
});
