import { describe, expect, it } from 'vitest';
import { parseScript } from '../../../../activities/models/script-file.js';
import { createScriptedProvider } from '../../../../activities/models/scripted.js';
import { ModelProblem } from '../../../../activities/models/types.js';
import type { ChatMessage } from '../../../../activities/models/types.js';

function scriptOf(value: unknown) {
  const parsed = parseScript(value);
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.data;
}

const messages: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(40) }];

describe('createScriptedProvider', () => {
  const script = scriptOf({
    coder: [
      { content: 'one' },
      { content: 'two', tool_calls: [{ name: 'finish', arguments: { summary: 's' } }] },
      { content: 'three' },
    ],
    judge: [{ content: 'verdict', usage: { input_tokens: 7, output_tokens: 9 } }],
  });

  it('hands out turns in order from startTurn and counts what it consumed per role', async () => {
    const provider = createScriptedProvider({ file: 'turns.json', script, startTurn: { coder: 1 } });
    expect(provider.spec).toBe('scripted:turns.json');
    const turn = await provider.complete({ role: 'coder', messages, tools: [] });
    expect(turn.content).toBe('two');
    expect(turn.toolCalls).toEqual([{ id: 'call_coder_1_0', name: 'finish', arguments: { summary: 's' } }]);
    expect(provider.consumed('coder')).toBe(2);
    expect(provider.consumed('judge')).toBe(0);
    expect((await provider.complete({ role: 'judge', messages, tools: [] })).content).toBe('verdict');
    expect(provider.consumed('judge')).toBe(1);
  });

  it('throws a ModelProblem naming the file and the turns used when a role runs out', async () => {
    const provider = createScriptedProvider({ file: 'turns.json', script, startTurn: { coder: 3 } });
    const error = await provider.complete({ role: 'coder', messages, tools: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelProblem);
    expect((error as Error).message).toBe(
      'model problem: the scripted file turns.json has no coder turn left (used 3)',
    );
    expect(provider.consumed('coder')).toBe(3);
  });

  it('uses recorded usage, and estimates ceil(chars/4) when a turn has none', async () => {
    const provider = createScriptedProvider({ file: 'f', script });
    expect((await provider.complete({ role: 'judge', messages, tools: [] })).usage).toEqual({
      inputTokens: 7,
      outputTokens: 9,
    });
    // 40 request chars -> 10 tokens; reply 'one' (3 chars) -> 1 token.
    expect((await provider.complete({ role: 'coder', messages, tools: [] })).usage).toEqual({
      inputTokens: 10,
      outputTokens: 1,
    });
  });
});
