import { describe, expect, it } from 'vitest';
import { learningFromEnv } from '../../../../activities/learning/report-failure.js';
import { mayLearn } from '../../../../domain/learning/gate.js';

describe("the learning gate from the worker's environment", () => {
  it('lets the coder learn by default', () => {
    const gate = learningFromEnv({});
    expect(gate).toEqual({ enabled: true, roles: ['coder'] });
    expect(mayLearn(gate, 'coder')).toBe(true);
    expect(mayLearn(gate, 'reviewer')).toBe(false);
  });

  it('turns learning off, or names the roles that may learn', () => {
    expect(mayLearn(learningFromEnv({ TASKLOOP_LEARNING: 'off' }), 'coder')).toBe(false);
    const gate = learningFromEnv({ TASKLOOP_LEARNING_ROLES: 'reviewer, judge' });
    expect(gate.roles).toEqual(['reviewer', 'judge']);
    expect(mayLearn(gate, 'coder')).toBe(false);
    expect(mayLearn(gate, 'judge')).toBe(true);
  });
});
