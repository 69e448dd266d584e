import { describe, expect, it } from 'vitest';
import { parseTaskSpec, type TaskSpecInput } from '../../../domain/task-spec.js';

const minimal: TaskSpecInput = { id: 'fix-add', repo: './repo', goal: 'fix add', models: { coder: 'openai:gemma' } };

const errorOf = (models: unknown) => {
  const result = parseTaskSpec({ ...minimal, models });
  if (result.success) throw new Error('expected the spec to be refused');
  return result.error;
};

describe('models.<role> with settings', () => {
  it('keeps each role a plain spec and puts the settings apart, per role', () => {
    const result = parseTaskSpec({
      ...minimal,
      models: {
        coder: { model: 'openai:gemma', contextWindow: 8192, serverWaitMs: 0 },
        reviewer: { model: 'openai:qwen' },
        judge: { model: 'openai:qwen', serverWaitMs: 60_000 },
        skillWriter: 'openai:qwen',
      },
    });
    expect(result.success && result.data.models).toEqual({
      coder: 'openai:gemma',
      reviewer: 'openai:qwen',
      judge: 'openai:qwen',
      skillWriter: 'openai:qwen',
    });
    expect(result.success && result.data.modelOptions).toEqual({
      coder: { contextWindow: 8192, serverWaitMs: 0 },
      judge: { serverWaitMs: 60_000 },
    });
  });

  it('gives a spec written as before no settings at all', () => {
    const result = parseTaskSpec(minimal);
    expect(result.success && 'modelOptions' in result.data).toBe(false);
  });

  it('refuses a window or a wait out of range, naming the field, the value and the fix', () => {
    expect(errorOf({ coder: { model: 'openai:gemma', contextWindow: 100 } })).toBe(
      "models.coder.contextWindow: expected a whole number of tokens from 256 to 10000000, got 100 (set models.coder.contextWindow to the server's window, e.g. 8192 (llama-server --ctx-size), or leave it out)",
    );
    expect(errorOf({ coder: 'openai:gemma', judge: { model: 'openai:q', serverWaitMs: 1.5 } })).toBe(
      'models.judge.serverWaitMs: expected a whole number of milliseconds from 0 to 3600000, got 1.5 (set models.judge.serverWaitMs to e.g. 60000 (0: fail at the first unreachable call), or leave it out)',
    );
    expect(errorOf({ coder: { model: 'openai:gemma', serverWaitMs: '60s' } })).toContain(
      'models.coder.serverWaitMs: expected a whole number of milliseconds from 0 to 3600000, got "60s"',
    );
  });

  it('refuses a misspelt setting, a missing model and settings on the skill writer', () => {
    expect(errorOf({ coder: { model: 'openai:gemma', contextWindw: 8192 } })).toBe(
      'models.coder.contextWindw: unknown field, got 8192 (remove models.coder.contextWindw or fix its spelling; known fields: model, contextWindow, serverWaitMs)',
    );
    expect(errorOf({ coder: { contextWindow: 8192 } })).toMatch(
      /^models\.coder\.model: expected a model spec .* got nothing \(set models\.coder\.model to e\.g\. "openai:gpt-4o-mini"\)$/,
    );
    expect(errorOf({ coder: 5 })).toMatch(/^models\.coder: expected a model spec .*, or \{"model": <spec>.* got 5 \(/);
    expect(errorOf({ coder: { model: 'gpt-4o' } })).toMatch(
      /^models\.coder\.model: .*got "gpt-4o" \(set models\.coder\.model to/,
    );
    expect(errorOf({ coder: 'openai:gemma', skillWriter: { model: 'openai:q' } })).toMatch(/^models\.skillWriter: /);
  });
});
