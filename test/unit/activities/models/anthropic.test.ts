import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from '../../../../activities/models/anthropic.js';
import { describeProviderContract } from './provider-contract.js';
import { messagesReply } from './support/local-model-server.js';

type Block = { type: string; content?: string };

describe('the anthropic provider against a local Messages API server', () => {
  describeProviderContract({
    kind: 'anthropic',
    basePath: '',
    reply: (text, tools = [], finish) => ({
      ...messagesReply(
        text,
        tools.map((tool) => ({ name: tool.name, input: tool.args })),
      ),
      ...(finish === 'length' ? { stop_reason: 'max_tokens' } : {}),
    }),
    toolResults: (body) =>
      (body.messages as { content: Block[] }[]).flatMap((m) =>
        m.content.filter((b) => b.type === 'tool_result').map((b) => b.content ?? ''),
      ),
  });
});

describe('toAnthropicMessages', () => {
  it('moves system text out, sends tool results in user turns and merges same-role neighbours', () => {
    const { system, turns } = toAnthropicMessages([
      { role: 'system', content: 'rules' },
      { role: 'user', content: 'goal' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'read_file', arguments: { path: 'a' } }] },
      { role: 'tool', toolCallId: 't1', name: 'read_file', content: 'text' },
      { role: 'user', content: 'nudge' },
    ]);
    expect(system).toBe('rules');
    expect(turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[1]?.content).toEqual([{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } }]);
    expect(turns[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'text' },
      { type: 'text', text: 'nudge' },
    ]);
  });
});
