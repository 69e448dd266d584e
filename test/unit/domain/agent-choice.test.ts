import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseCoderVersion, modelDefaultFor } from '../../../domain/agent-choice.js';
import { parseAgentRegistry, type AgentRegistry } from '../../../domain/agents.js';
import { parametersInName } from '../../../domain/model-size.js';

const shipped = (): AgentRegistry => {
  const parsed = parseAgentRegistry(JSON.parse(readFileSync('agents/registry.json', 'utf8')));
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.data;
};

describe('the coder version a model gets by default (agents/registry.json modelDefaults)', () => {
  it('gives local and small models the small-model version, every other model the champion', () => {
    const registry = shipped();
    expect(chooseCoderVersion(registry, 'local:qwen2.5-coder-0.5b', {})).toEqual({
      success: true,
      data: { version: 'coder-small-text', why: 'default for local models' },
    });
    expect(chooseCoderVersion(registry, 'local:/models/any-7b-instruct.gguf', {})).toMatchObject({
      data: { version: 'coder-small-text', why: 'default for local models' },
    });
    expect(chooseCoderVersion(registry, 'openai:qwen2.5-coder:1.5b', {})).toEqual({
      success: true,
      data: { version: 'coder-small-text', why: 'default for small models' },
    });
    for (const model of [
      'openai:gpt-4o-mini',
      'openai:Qwen2.5-Coder-32B-Instruct',
      'anthropic:claude-sonnet-4-5',
      'scripted:turns.json',
    ])
      expect(chooseCoderVersion(registry, model, {}), model).toEqual({
        success: true,
        data: { why: "the registry's champion" },
      });
  });

  it('reads the size from the name: separated number + b, not a version number or a mixture', () => {
    expect(parametersInName('openai:qwen2.5-coder:1.5b')).toBe(1.5);
    expect(parametersInName('openai:Llama-3.2-3B-Instruct')).toBe(3);
    expect(parametersInName('local:qwen2.5-coder-0.5b-instruct-q4_k_m.gguf')).toBe(0.5);
    expect(parametersInName('openai:mixtral-8x7b')).toBeUndefined();
    expect(parametersInName('openai:gpt-4o')).toBeUndefined();
    expect(parametersInName('openai:qwen2.5')).toBeUndefined();
  });

  it('a rule matches on every condition it names; the first match wins', () => {
    const rules = [
      { for: 'tiny openai models', provider: 'openai', parametersAtMost: 1, version: 'a' },
      { for: 'anything local', provider: 'local', version: 'b' },
    ];
    expect(modelDefaultFor(rules, 'openai:x-0.5b')?.version).toBe('a');
    expect(modelDefaultFor(rules, 'openai:x-7b')).toBeUndefined();
    expect(modelDefaultFor(rules, 'local:x-7b')?.version).toBe('b');
  });
});

describe('precedence: --agent > the task (or its defaults) > the config > the model default > the champion', () => {
  const registry = shipped();
  const flag = { version: 'coder-1', why: '--agent' };
  const task = { version: 'coder-small', why: "the task's agents.coder" };
  const config = { version: 'coder-evidence', why: 'taskloop.config.json agents.coder' };
  const model = 'local:qwen2.5-coder-1.5b';

  it('takes the first that is set', () => {
    expect(chooseCoderVersion(registry, model, { flag, task, config })).toMatchObject({ data: flag });
    expect(chooseCoderVersion(registry, model, { task, config })).toMatchObject({ data: task });
    expect(chooseCoderVersion(registry, model, { config })).toMatchObject({ data: config });
    expect(chooseCoderVersion(registry, model, {})).toMatchObject({ data: { version: 'coder-small-text' } });
  });

  it('refuses an unknown version, naming where it came from and the known ones', () => {
    const chosen = chooseCoderVersion(registry, model, { flag: { version: 'coder-tiny', why: '--agent' } });
    expect(chosen).toEqual({
      success: false,
      error: expect.stringMatching(
        /^no coder version "coder-tiny" \(from --agent\); known versions: coder-1, .*coder-small-text/,
      ),
    });
    expect(chooseCoderVersion(undefined, model, { config: { version: 'coder-1', why: 'x' } })).toMatchObject({
      success: false,
      error: expect.stringContaining('known versions: builtin'),
    });
  });

  it('a registry whose rule names no version is refused when read', () => {
    const parsed = parseAgentRegistry({
      coder: {
        champion: 'c1',
        versions: { c1: {} },
        modelDefaults: [{ for: 'local models', provider: 'local', version: 'c9' }],
      },
    });
    expect(parsed).toEqual({
      success: false,
      error: 'coder.modelDefaults.0.version: names no version of this role (known: c1)',
    });
  });
});
