import { describe, expect, it } from 'vitest';
import { differingSpecFields } from '../../../domain/task-spec-diff.js';
import { parseTaskSpec, type TaskSpec } from '../../../domain/task-spec.js';

const spec = (extra: Record<string, unknown>): TaskSpec => {
  const parsed = parseTaskSpec({
    id: 'fix',
    repo: '/repo',
    goal: 'Fix add',
    models: { coder: 'scripted:/s.json' },
    ...extra,
  });
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.data;
};

describe('differingSpecFields', () => {
  it('is empty for the same spec', () => {
    expect(differingSpecFields(spec({}), spec({}))).toEqual([]);
  });

  it('names each field that differs, nested ones by their top-level field', () => {
    expect(
      differingSpecFields(
        spec({}),
        spec({ goal: 'Fix mul', testCommand: ['pytest'], models: { coder: 'openai:gpt-4o' } }),
      ),
    ).toEqual(['goal', 'testCommand', 'models']);
  });
});

describe('task spec input truth', () => {
  it('refuses a blank goal, naming the field', () => {
    for (const goal of ['', '   ', '\n\t']) {
      const parsed = parseTaskSpec({ id: 'x', repo: '/r', goal, models: { coder: 'scripted:/s.json' } });
      expect(parsed.success).toBe(false);
      if (!parsed.success) expect(parsed.error).toMatch(/^goal: expected a goal of 1 to 20000 characters, not blank/);
    }
  });

  it('refuses maxRetries above the cap, naming the cap', () => {
    const parsed = parseTaskSpec({
      id: 'x',
      repo: '/r',
      goal: 'Fix',
      maxRetries: 5,
      models: { coder: 'scripted:/s.json' },
    });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(parsed.error).toContain("maxRetries: expected a whole number from 0 to 2 (the loop's retry cap");
    expect(
      parseTaskSpec({ id: 'x', repo: '/r', goal: 'Fix', maxRetries: 2, models: { coder: 'scripted:/s.json' } }).success,
    ).toBe(true);
  });
});
