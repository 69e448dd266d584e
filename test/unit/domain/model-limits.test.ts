import { describe, expect, it } from 'vitest';
import { defaultMaxTokens, modelCallTimeoutMs, outputLimit } from '../../../domain/model-limits.js';

describe('outputLimit', () => {
  it("takes the agent version's limit, else the role's default", () => {
    expect(outputLimit('coder', 300)).toBe(300);
    expect(outputLimit('judge', undefined)).toBe(defaultMaxTokens.judge);
  });
});

describe('modelCallTimeoutMs', () => {
  it('gives a call the time its output limit needs at the speed floor, plus reading the prompt and an overhead', () => {
    // 2048 tokens at 2 tokens/s: 1024 s; 4000 prompt tokens at 20 tokens/s: 200 s; 30 s overhead.
    expect(modelCallTimeoutMs({ maxTokens: 2048, promptTokens: 4000 })).toBe(1_254_000);
    expect(modelCallTimeoutMs({ maxTokens: 256, promptTokens: 0, minTokensPerSecond: 10 })).toBe(55_600);
  });

  it('grows with the output limit, so a larger limit is never cut by a fixed timeout', () => {
    const small = modelCallTimeoutMs({ maxTokens: 256, promptTokens: 1000 });
    expect(modelCallTimeoutMs({ maxTokens: 4096, promptTokens: 1000 })).toBeGreaterThan(small);
  });

  it('lets a fixed timeout win', () => {
    expect(modelCallTimeoutMs({ maxTokens: 2048, promptTokens: 4000, overrideMs: 5_000 })).toBe(5_000);
  });
});
