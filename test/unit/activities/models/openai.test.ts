import { describe, expect, it } from 'vitest';
import { readCompletion } from '../../../../activities/models/openai.js';
import { describeProviderContract } from './provider-contract.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { chatReply, startLocalModelServer } from './support/local-model-server.js';

describe('the openai provider against a local chat-completions server', () => {
  describeProviderContract({
    kind: 'openai',
    basePath: '/v1',
    reply: (text, tools = [], finish) => {
      const reply = chatReply(
        text,
        tools.map((tool) => ({ name: tool.name, arguments: tool.args })),
      );
      if (finish === 'length' && reply.choices[0]) reply.choices[0].finish_reason = 'length';
      return reply;
    },
    toolResults: (body) =>
      (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool').map((m) => m.content),
  });
});

describe('readCompletion', () => {
  it('reads tool calls with JSON arguments and the usage', () => {
    const turn = readCompletion(
      chatReply('x', [{ name: 'read_file', arguments: { path: 'a.py' } }], { prompt_tokens: 5, completion_tokens: 2 }),
      'openai:m',
    );
    expect(turn).toEqual({
      content: 'x',
      toolCalls: [{ id: 'call_0_read_file', name: 'read_file', arguments: { path: 'a.py' } }],
      usage: { inputTokens: 5, outputTokens: 2 },
      model: 'test-model',
      finishReason: 'tool_calls',
    });
  });

  it('keeps the text of tool-call arguments that are not a JSON object, for the coder to answer', () => {
    const reply = chatReply('', [{ name: 'write_file', arguments: {} }]);
    const call = reply.choices[0]?.message.tool_calls?.[0];
    if (call) call.function.arguments = '{"path": ';
    expect(readCompletion(reply, 'openai:m').toolCalls).toEqual([
      { id: 'call_0_write_file', name: 'write_file', arguments: {}, invalidArguments: '{"path": ' },
    ]);
  });
});

describe('the output-limit field', () => {
  it('switches to max_completion_tokens when the server refuses max_tokens, and keeps it', async () => {
    const server = await startLocalModelServer([
      {
        status: 400,
        body: {
          error: {
            message:
              "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          },
        },
      },
      { body: chatReply('one') },
      { body: chatReply('two') },
    ]);
    try {
      const env = { OPENAI_BASE_URL: `${server.url}/v1`, TASKLOOP_MODEL_TIMEOUT_MS: '5000' };
      const model = await createModelProvider('openai:m', { role: 'reviewer', cwd: '/', env });
      const request = { role: 'reviewer' as const, messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };
      expect((await model.complete(request)).content).toBe('one');
      expect((await model.complete(request)).content).toBe('two');
      expect(server.requests.map((seen) => Object.keys(seen.body).filter((key) => key.startsWith('max_')))).toEqual([
        ['max_tokens'],
        ['max_completion_tokens'],
        ['max_completion_tokens'],
      ]);
    } finally {
      await server.close();
    }
  });
});
