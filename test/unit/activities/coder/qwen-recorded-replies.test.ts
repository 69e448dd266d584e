// The coder against replies recorded from a real llama-server serving Qwen2.5-Coder-0.5B-Instruct (the bundled
// local:qwen2.5-coder-0.5b) on taskloop's own first prompt of the demo task fix-add, replayed by a local server: the
// model called a tool that does not exist (`fix_calc.add`) and, told "You replied without calling a tool", sent the
// identical reply again (issue 52).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { chatReply, startLocalModelServer, type LocalModelServer } from '../models/support/local-model-server.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/model-replies');
const recorded = async (name: string) =>
  (JSON.parse(await readFile(path.join(fixtures, name), 'utf8')) as { reply: unknown }).reply;

let server: LocalModelServer;
let t: TempRepo;
beforeEach(async () => {
  server = await startLocalModelServer();
  t = await createTempRepo({
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  });
});
afterEach(async () => {
  await server.close();
  await t.cleanup();
});

async function input(overrides: Partial<RunCoderInput> = {}): Promise<RunCoderInput> {
  const provider = await createModelProvider('openai:qwen2.5-coder-0.5b', {
    role: 'coder',
    cwd: '/',
    env: { OPENAI_BASE_URL: `${server.url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '5000' },
    parameters: { maxTokens: 256 },
  });
  return {
    ...{ worktreePath: t.repo, goal: 'Fix calc.add: it subtracts instead of adding', provider, maxSteps: 6 },
    ...{ previousAttempts: [], secretValues: [], artifactDir: t.artifacts, hostId: 'h', ...overrides },
  };
}

/** The user message the coder sent after turn `n` (1-based), as the next request carried it. */
const answerAfter = (n: number) =>
  (server.requests[n]?.body.messages as { role: string; content: string }[]).at(-1)?.content ?? '';

describe('replies recorded from llama-server with Qwen2.5-Coder-0.5B', () => {
  it('answers a text call of a tool that does not exist with the tools there are', async () => {
    server.push(
      { body: await recorded('llama-server-qwen2.5-coder-0.5b-unknown-tool.json') },
      { body: chatReply('', [{ name: 'finish', arguments: { summary: 'gave up' } }]) },
    );
    await runCoder(await input());
    const answer = answerAfter(1);
    expect(answer).toMatch(
      /^There is no tool named 'fix_calc.add': nothing was run\. The tools are: list_files, read_file,/,
    );
    expect(answer).toContain('replace_in_file');
    expect(answer).not.toContain('You replied without calling a tool');
  });

  it('answers a call whose JSON does not parse, naming a tool that does not exist, with the tools there are', async () => {
    server.push(
      { body: await recorded('qwen2.5-coder-0.5b-broken-json-unknown-tool.json') },
      { body: chatReply('', [{ name: 'finish', arguments: { summary: 'gave up' } }]) },
    );
    await runCoder(await input());
    expect(answerAfter(1)).toMatch(/^There is no tool named 'fix_calc_mean': nothing was run\. The tools are: /);
  });

  it('ends the attempt as CoderStuck when the same reply comes three times, with no call it could run', async () => {
    const same = await recorded('llama-server-qwen2.5-coder-0.5b-same-reply.json');
    server.push(...[1, 2, 3, 4, 5, 6].map(() => ({ body: same })));
    const result = await runCoder(await input());
    expect(result).toMatchObject({ status: 'model_error', cause: { kind: 'CoderStuck' } });
    expect(result.reason).toMatch(
      /^no progress: the same reply was sent 3 turns in a row \(```json \{ "name": "fix_calc.add"/,
    );
    expect(server.requests).toHaveLength(3);
    // Well formed counts calls of offered tools only: none of these replies made one.
    expect(result.telemetry).toMatchObject({ modelRequests: 3, offeredToolReplies: 0 });
  });

  it('does not blame the output limit for a reply cut in prose, before any call', async () => {
    const cut = chatReply('I will now look at the code and think about what add should do, step by step, and');
    cut.choices[0]!.finish_reason = 'length';
    server.push({ body: cut }, { body: chatReply('', [{ name: 'finish', arguments: { summary: 'gave up' } }]) });
    await runCoder(await input());
    expect(answerAfter(1)).toMatch(/^Your reply was cut off by the output limit before it called a tool\./);
    const inCall = chatReply(
      '```json\n{"name": "write_file", "arguments": {"path": "calc.py", "content": "def add(a, b):\n',
    );
    inCall.choices[0]!.finish_reason = 'length';
    server.requests.length = 0;
    server.push({ body: inCall }, { body: chatReply('', [{ name: 'finish', arguments: { summary: 'gave up' } }]) });
    await runCoder(await input({ artifactDir: path.join(t.base, 'second') }));
    expect(answerAfter(1)).toMatch(/^Your reply was cut off by the output limit in the middle of a tool call/);
  });
});
