import { describe, expect, it } from 'vitest';
import { planArms } from '../../../../domain/eval/arms.js';

describe('planArms', () => {
  it('makes one arm per combination of model, agent version and learning, with short stable ids', () => {
    const arms = planArms({ models: ['oracle', 'openai:m'], agents: ['coder-1', undefined], learning: [true, false] });
    expect(arms).toHaveLength(8);
    expect(arms.map((arm) => arm.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8']);
    expect(arms[0]).toEqual({
      id: 'a1',
      label: 'oracle coder-1 learning=on',
      model: 'oracle',
      agent: 'coder-1',
      learning: true,
    });
    expect(arms[3]).toEqual({ id: 'a4', label: 'oracle champion learning=off', model: 'oracle', learning: false });
  });

  it('adds an arm per samples count; one sample an attempt keeps the label and fields every arm had before', () => {
    const arms = planArms({ models: ['local:m'], agents: [undefined], learning: [true], samples: [1, 3] });
    expect(arms).toEqual([
      { id: 'a1', label: 'local:m champion learning=on', model: 'local:m', learning: true },
      { id: 'a2', label: 'local:m champion learning=on samples=3', model: 'local:m', learning: true, samples: 3 },
    ]);
  });
});
