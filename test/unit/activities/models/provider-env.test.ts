import { describe, expect, it } from 'vitest';
import {
  contextWindowSetting,
  contextWindowSettingNames,
  resolveEndpoint,
} from '../../../../activities/models/provider-env.js';
import { parseRetryAfter } from '../../../../activities/models/provider-errors.js';

describe('resolveEndpoint', () => {
  it('prefers the per-role variables over the vendor ones and names the key variable it used', () => {
    const env = {
      OPENAI_BASE_URL: 'http://a/v1',
      OPENAI_API_KEY: 'k1',
      TASKLOOP_JUDGE_OPENAI_BASE_URL: 'http://b/v1',
      TASKLOOP_JUDGE_OPENAI_API_KEY: 'k2',
    };
    expect(resolveEndpoint('openai', 'judge', env)).toEqual({
      baseURL: 'http://b/v1',
      apiKey: 'k2',
      keyVariable: 'TASKLOOP_JUDGE_OPENAI_API_KEY',
      baseVariable: 'OPENAI_BASE_URL',
    });
    expect(resolveEndpoint('openai', 'coder', env)).toMatchObject({
      baseURL: 'http://a/v1',
      apiKey: 'k1',
      keyVariable: 'OPENAI_API_KEY',
    });
  });

  it('names the vendor key variable when none is set and reads the timeout and the speed floor', () => {
    const env = { TASKLOOP_MODEL_TIMEOUT_MS: '5000', TASKLOOP_MODEL_MIN_TOKENS_PER_SECOND: '2.5' };
    expect(resolveEndpoint('anthropic', 'skillWriter', env)).toEqual({
      baseURL: undefined,
      apiKey: undefined,
      keyVariable: 'ANTHROPIC_API_KEY',
      baseVariable: 'ANTHROPIC_BASE_URL',
      timeoutMs: 5000,
      minTokensPerSecond: 2.5,
    });
  });

  it('leaves the timeout to be derived per call when no fixed one is set, and ignores unusable values', () => {
    const endpoint = resolveEndpoint('openai', 'coder', { TASKLOOP_MODEL_TIMEOUT_MS: 'soon' });
    expect(endpoint.timeoutMs).toBeUndefined();
    expect(endpoint.minTokensPerSecond).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }), 0)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '1500', 'retry-after': '3' }), 0)).toBe(1500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(10_000);
  });

  it('gives nothing for a missing or unreadable header and caps very long waits', () => {
    expect(parseRetryAfter(headers({}), 0)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), 0)).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': '86400' }), 0)).toBe(15 * 60_000);
  });
});

describe('contextWindowSetting', () => {
  const env = { TASKLOOP_CODER_CONTEXT_WINDOW: '16000', TASKLOOP_CONTEXT_WINDOW: '32000' };

  it("takes the task's window first, then the variables, then the agent version's", () => {
    expect(contextWindowSetting('coder', env, { taskWindow: 8192, versionWindow: 4096 })).toEqual({
      tokens: 8192,
      name: 'models.coder.contextWindow',
    });
    expect(contextWindowSetting('coder', env, { versionWindow: 4096 })).toEqual({
      tokens: 16000,
      name: 'TASKLOOP_CODER_CONTEXT_WINDOW',
    });
    expect(contextWindowSetting('judge', {}, { versionWindow: 4096 })).toMatchObject({ tokens: 4096 });
    expect(contextWindowSetting('judge', {})).toBeUndefined();
  });

  it('names the task field first among the settings a message points to', () => {
    expect(contextWindowSettingNames('coder')).toEqual([
      'models.coder.contextWindow',
      'TASKLOOP_CODER_CONTEXT_WINDOW',
      'TASKLOOP_CONTEXT_WINDOW',
    ]);
  });
});
