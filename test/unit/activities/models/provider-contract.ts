// The same behaviour checks for every HTTP provider, each against a local server speaking its protocol.
import { readFile } from 'node:fs/promises';
import { ApplicationFailure } from '@temporalio/common';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCoder } from '../../../../activities/coder/run-coder.js';
import { createModelProvider, type ModelProviderOptions } from '../../../../activities/models/router.js';
import { defaultMaxTokens } from '../../../../domain/model-limits.js';
import { ModelProblem, type ModelProvider } from '../../../../activities/models/types.js';
import { createTempRepo, type TempRepo } from '../coder/fixtures.js';
import { startLocalModelServer, type LocalModelServer, type ScriptedReply } from './support/local-model-server.js';

export interface ProviderCase {
  kind: 'openai' | 'anthropic';
  /** Path suffix of the base URL (the OpenAI SDK appends /chat/completions, Anthropic /v1/messages). */
  basePath: string;
  reply(text: string, tools?: { name: string; args: Record<string, unknown> }[], finish?: 'length'): unknown;
  /** Tool results the server saw in the last request, as tool-call-id -> content. */
  toolResults(body: Record<string, unknown>): string[];
}

const request = { role: 'coder' as const, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call should have failed'),
    (error: unknown) => error,
  );
}

/** Registers the shared tests for one provider. */
export function describeProviderContract(c: ProviderCase): void {
  let server: LocalModelServer;
  let repo: TempRepo;
  const provider = (
    replies: ScriptedReply[],
    timeoutMs = 5_000,
    options: Partial<Pick<ModelProviderOptions, 'role' | 'parameters'>> = {},
  ): Promise<ModelProvider> => {
    server.push(...replies);
    const vendor = c.kind.toUpperCase();
    const env = {
      [`${vendor}_BASE_URL`]: `${server.url}${c.basePath}`,
      [`${vendor}_API_KEY`]: 'test-key',
      TASKLOOP_MODEL_TIMEOUT_MS: String(timeoutMs),
    };
    return createModelProvider(`${c.kind}:test-model`, { role: 'coder', cwd: '/', env, ...options });
  };
  beforeEach(async () => {
    server = await startLocalModelServer();
    repo = await createTempRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
  });
  afterEach(async () => {
    await server.close();
    await repo.cleanup();
  });

  it('runs a tool-calling coder conversation to completion, sending tool results back and counting tokens', async () => {
    const model = await provider([
      { body: c.reply('Reading.', [{ name: 'read_file', args: { path: 'calc.py' } }]) },
      {
        body: c.reply('', [
          { name: 'replace_in_file', args: { path: 'calc.py', old: 'return a - b', new: 'return a + b' } },
        ]),
      },
      { body: c.reply('', [{ name: 'finish', args: { summary: 'add adds' } }]) },
    ]);
    const result = await runCoder({
      worktreePath: repo.repo,
      goal: 'Fix add',
      provider: model,
      maxSteps: 5,
      previousAttempts: [],
      secretValues: [],
      artifactDir: repo.artifacts,
      hostId: 'h',
    });

    expect(result).toMatchObject({ status: 'finished', summary: 'add adds', changedFiles: ['calc.py'] });
    expect(await readFile(`${repo.repo}/calc.py`, 'utf8')).toContain('return a + b');
    const chats = server.requests;
    expect(chats).toHaveLength(3);
    expect(chats[0]?.headers.authorization ?? chats[0]?.headers['x-api-key']).toContain('test-key');
    expect(chats[0]?.body.model).toBe('test-model');
    expect(c.toolResults(chats[1]?.body ?? {}).join('\n')).toContain('return a - b');
    expect(result.telemetry.modelRequests).toBe(3);
    expect(result.telemetry.inputTokens).toBeGreaterThanOrEqual(300);
  });

  it('turns a 429 into a retryable failure whose next retry delay is the Retry-After', async () => {
    const model = await provider([
      { status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'slow down' } } },
    ]);
    const error = await caught(model.complete(request));
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'ProviderRateLimited', nonRetryable: false, nextRetryDelay: 7000 });
    expect(server.requests).toHaveLength(1);
  });

  it('turns a 401 into a non-retryable failure naming the variable to set, after one request', async () => {
    const model = await provider([{ status: 401, body: { error: { message: 'bad key' } } }]);
    const error = await caught(model.complete(request));
    expect(error).toMatchObject({
      type: 'ProviderAuthFailed',
      nonRetryable: true,
      message: expect.stringContaining(`${c.kind.toUpperCase()}_API_KEY`),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('turns a 500 into a retryable failure, and the next call succeeds', async () => {
    const model = await provider([{ status: 500, body: { error: { message: 'boom' } } }, { body: c.reply('fine') }]);
    expect(await caught(model.complete(request))).toMatchObject({ type: 'ProviderUnavailable', nonRetryable: false });
    expect(server.requests).toHaveLength(1);
    expect((await model.complete(request)).content).toBe('fine');
  });

  it('treats a malformed body and an empty reply as model problems', async () => {
    const model = await provider([{ body: '{"choices": [' }, { body: { unexpected: true } }, { body: c.reply('') }]);
    for (let i = 0; i < 3; i++) {
      const error = await caught(model.complete(request));
      expect(error).toBeInstanceOf(ModelProblem);
      expect((error as Error).message).toMatch(/^model problem: /);
    }
  });

  it('turns a reply slower than the timeout into a retryable timeout failure', async () => {
    const model = await provider([{ body: c.reply('late'), delayMs: 3_000 }], 300);
    expect(await caught(model.complete(request))).toMatchObject({ type: 'ProviderTimeout', nonRetryable: false });
  });

  it("always sends an output limit: the role's default, or the agent version's own", async () => {
    const coder = await provider([{ body: c.reply('one') }]);
    await coder.complete(request);
    const judge = await provider([{ body: c.reply('two') }], 5_000, { role: 'judge', parameters: { maxTokens: 77 } });
    await judge.complete({ ...request, role: 'judge' });
    expect(server.requests.map((seen) => seen.body.max_tokens)).toEqual([defaultMaxTokens.coder, 77]);
    expect(coder.maxTokens).toBe(defaultMaxTokens.coder);
  });

  it('records the model the server says answered, and a reply cut by the limit', async () => {
    const model = await provider([{ body: c.reply('half a th', [], 'length') }]);
    expect(await model.complete(request)).toMatchObject({ model: 'test-model', finishReason: 'length' });
  });

  it('aborts the HTTP request when the signal aborts: the server sees the connection close before its reply is due', async () => {
    const model = await provider([{ body: c.reply('never'), delayMs: 20_000 }], 60_000);
    const controller = new AbortController();
    const call = model.complete({ ...request, signal: controller.signal });
    await waitFor(() => server.requests.length === 1);
    controller.abort(new Error('task cancelled'));
    await caught(call);
    // The server holds its reply 20 s: a close seen before then came from the abort (no bound on how fast).
    await waitFor(() => server.requests[0]?.abortedAt !== undefined, 15_000);
    expect(server.requests[0]?.abortedAt).toBeDefined();
  });

  it('closes the connection when its own timeout passes, so the server stops generating', async () => {
    const model = await provider([{ body: c.reply('late'), delayMs: 20_000 }], 300);
    expect(await caught(model.complete(request))).toMatchObject({ type: 'ProviderTimeout' });
    await waitFor(() => server.requests[0]?.abortedAt !== undefined);
    expect(server.requests[0]?.abortedAt).toBeDefined();
  });
}

/** Polls `check` every 20 ms for up to `limitMs` (3 s). */
async function waitFor(check: () => boolean, limitMs = 3_000): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > limitMs) throw new Error(`condition not met within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
