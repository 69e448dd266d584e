// The coder coping with what small local models do, against a local chat-completions server: tool calls written as
// text, a reply cut by the output limit in the middle of a call's JSON, and the same call again and again.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCoder, type RunCoderInput } from '../../../../activities/coder/run-coder.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { classifyCause } from '../../../../domain/failure-causes.js';
import { chatReply, startLocalModelServer, type LocalModelServer } from '../models/support/local-model-server.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

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

async function input(): Promise<RunCoderInput> {
  const env = { OPENAI_BASE_URL: `${server.url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '5000' };
  const parameters = { maxTokens: 256 };
  const provider = await createModelProvider('openai:gemma', { role: 'coder', cwd: '/', env, parameters });
  return {
    ...{ worktreePath: t.repo, goal: 'Fix add in calc.py', provider, maxSteps: 6, previousAttempts: [] },
    ...{ secretValues: [], artifactDir: t.artifacts, hostId: 'h' },
  };
}

/** A reply as llama.cpp sends it: its own model name, `finish_reason`, and raw tool-call argument text. */
function rawReply(content: string | null, calls: { name: string; args: string }[], finish: string) {
  return {
    ...chatReply('x'),
    model: 'gemma-3-270m-it-Q4_K_M.gguf',
    choices: [
      {
        index: 0,
        finish_reason: finish,
        message: {
          role: 'assistant',
          content,
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call, i) => ({
                  id: `call_${i}`,
                  type: 'function',
                  function: { name: call.name, arguments: call.args },
                })),
              }),
        },
      },
    ],
  };
}

const toolMessages = (index: number) =>
  ((server.requests[index]?.body.messages ?? []) as { role: string; content: string }[]).filter(
    (message) => message.role === 'tool',
  );

describe('the coder coping with a real model', () => {
  it('runs tool calls written as text when the reply has none, and counts them', async () => {
    const fix =
      '```json\n{"name": "replace_in_file", "arguments": {"path": "calc.py", "old": "return a - b", "new": "return a + b"}}\n```';
    server.push(
      { body: rawReply(fix, [], 'stop') },
      { body: rawReply('{"name": "finish", "arguments": {"summary": "add adds"}}', [], 'stop') },
    );
    const result = await runCoder(await input());
    expect(result).toMatchObject({ status: 'finished', summary: 'add adds', changedFiles: ['calc.py'] });
    expect(result.telemetry.textToolCalls).toBe(2);
    expect(await readFile(path.join(t.repo, 'calc.py'), 'utf8')).toContain('return a + b');
    expect(result.answeredBy).toEqual(['gemma-3-270m-it-Q4_K_M.gguf']);
  });

  it('answers a call cut off by the output limit with a request for a shorter one, and runs the calls before it', async () => {
    server.push(
      {
        body: rawReply(
          null,
          [
            { name: 'read_file', args: '{"path": "calc.py"}' },
            { name: 'write_file', args: '{"path": "calc.py", "content": "def add(a, b):\\n    return a' },
          ],
          'length',
        ),
      },
      {
        body: chatReply('', [{ name: 'replace_in_file', arguments: { path: 'calc.py', old: 'a - b', new: 'a + b' } }]),
      },
      { body: chatReply('', [{ name: 'finish', arguments: { summary: 'add adds' } }]) },
    );
    const result = await runCoder(await input());
    expect(result).toMatchObject({ status: 'finished', telemetry: { truncatedToolCalls: 1 } });
    const replies = toolMessages(1);
    expect(replies[0]?.content).toContain('return a - b');
    expect(replies[1]?.content).toMatch(
      /the call to write_file was not run: your reply reached the output limit of 256 tokens and the call was cut off\. Make a shorter call/,
    );
  });

  it('ends the attempt early as a model problem when the same call is made three times, saying which', async () => {
    const read = { name: 'read_file', arguments: { path: 'calc.py' } };
    server.push(...[1, 2, 3].map(() => ({ body: chatReply('', [read]) })));
    const result = await runCoder(await input());
    expect(result.status).toBe('model_error');
    expect(result.cause).toMatchObject({ kind: 'CoderStuck' });
    expect(result.reason).toMatch(/same call was made 3 times in a row \(read_file \{"path":"calc.py"\}\)/);
    expect(server.requests).toHaveLength(3);
    expect(result.cause && classifyCause(result.cause, 'code')).toEqual({
      failureClass: 'model_problem',
      retry: 'new_attempt',
    });
  });

  it('ends the attempt when every call is cut off three turns in a row', async () => {
    const cut = {
      body: rawReply(null, [{ name: 'write_file', args: '{"path": "calc.py", "content": "def' }], 'length'),
    };
    server.push(cut, cut, cut);
    const result = await runCoder(await input());
    expect(result).toMatchObject({ status: 'model_error', cause: { kind: 'CoderStuck' } });
    expect(result.reason).toMatch(/cut off by the output limit 3 turns in a row/);
  });
});
