import { describe, expect, it } from 'vitest';
import {
  contextOverflowMessage,
  DEFAULT_CONTEXT_WINDOW,
  isContextError,
  MAX_FIRST_MESSAGE_TOKENS,
  planContext,
  windowInContextError,
} from '../../../domain/model-context.js';

describe('planContext', () => {
  it("takes the server's window first, then the setting, then the stated default", () => {
    const setting = { tokens: 8192, name: 'TASKLOOP_CODER_CONTEXT_WINDOW' };
    expect(planContext({ serverWindow: 4096, setting, maxTokens: 512, fixedTokens: 0 })).toMatchObject({
      window: 4096,
      source: 'server',
    });
    expect(planContext({ setting, maxTokens: 512, fixedTokens: 0 })).toMatchObject({
      window: 8192,
      source: 'setting',
      sourceName: 'TASKLOOP_CODER_CONTEXT_WINDOW',
    });
    expect(planContext({ maxTokens: 512, fixedTokens: 0 })).toMatchObject({
      window: DEFAULT_CONTEXT_WINDOW,
      source: 'default',
    });
  });

  it('keeps the output limit free for the reply, at most a quarter of a small window, and a margin for the estimate', () => {
    const small = planContext({ serverWindow: 2048, maxTokens: 2048, fixedTokens: 600 });
    expect(small.reservedForReply).toBe(512);
    expect(small.promptBudget).toBe(Math.floor((2048 - 512) * 0.8));
    expect(small.firstMessageBudget).toBe(Math.floor(small.promptBudget * 0.6) - 600);
    const large = planContext({ serverWindow: 200_000, maxTokens: 2048, fixedTokens: 600 });
    expect(large.reservedForReply).toBe(2048);
    expect(large.firstMessageBudget).toBe(MAX_FIRST_MESSAGE_TOKENS);
  });
});

describe('context errors', () => {
  it("reads the window from llama.cpp's, vLLM's and Anthropic's words", () => {
    expect(
      windowInContextError(
        '400 request (2863 tokens) exceeds the available context size (2048 tokens), try increasing it',
      ),
    ).toBe(2048);
    expect(
      windowInContextError("This model's maximum context length is 4096 tokens. However, you requested 5000"),
    ).toBe(4096);
    expect(windowInContextError('prompt is too long: 210000 tokens > 200000 maximum')).toBe(200_000);
    expect(windowInContextError('the request exceeds the available context size, try increasing it')).toBeUndefined();
  });

  it('tells a context error from another 400', () => {
    expect(isContextError('the request exceeds the available context size, try increasing it')).toBe(true);
    expect(isContextError('prompt is too long: 210000 tokens > 200000 maximum')).toBe(true);
    expect(isContextError('model "gpt-5" not found')).toBe(false);
  });

  it('names the window, where it came from, the prompt size and the setting to change', () => {
    const plan = planContext({
      setting: { tokens: 2048, name: 'TASKLOOP_CONTEXT_WINDOW' },
      maxTokens: 256,
      fixedTokens: 0,
    });
    const message = contextOverflowMessage({
      plan,
      promptTokens: 2863,
      settingNames: ['TASKLOOP_CODER_CONTEXT_WINDOW', 'TASKLOOP_CONTEXT_WINDOW'],
    });
    expect(message).toContain('about 2863 tokens');
    expect(message).toContain('context window of 2048 tokens (from TASKLOOP_CONTEXT_WINDOW)');
    expect(message).toContain('set TASKLOOP_CODER_CONTEXT_WINDOW or TASKLOOP_CONTEXT_WINDOW');
    const fromServer = contextOverflowMessage({
      plan: planContext({ serverWindow: 2048, maxTokens: 256, fixedTokens: 0 }),
      promptTokens: 3000,
      settingNames: [],
    });
    expect(fromServer).toContain('llama-server -c 8192');
  });
});
