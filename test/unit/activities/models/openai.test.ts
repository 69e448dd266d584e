import { describe, expect, it } from 'vitest';
import { readCompletion } from '../../../../activities/models/openai.js';
import { describeProviderContract } from './provider-contract.js';
import { chatReply } from './support/local-model-server.js';

describe('the openai provider against a local chat-completions server', () => {
  describeProviderContract({
    kind: 'openai',
    basePath: '/v1',
    reply: (text, tools = []) =>
      chatReply(
        text,
        tools.map((tool) => ({ name: tool.name, arguments: tool.args })),
      ),
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
    });
  });

  it('calls malformed tool-call arguments a model problem, naming the tool', () => {
    const reply = chatReply('', [{ name: 'write_file', arguments: {} }]);
    const call = reply.choices[0]?.message.tool_calls?.[0];
    if (call) call.function.arguments = '{"path": ';
    expect(() => readCompletion(reply, 'openai:m')).toThrow(
      /model problem: malformed JSON in the arguments of tool call write_file/,
    );
  });
});
