import { describe, expect, it } from 'vitest';
import { learningConfigSchema, mayLearn } from '../../../../domain/learning/gate.js';

describe('mayLearn', () => {
  it('lets a listed role learn while learning is enabled', () => {
    expect(mayLearn({ enabled: true, roles: ['coder'] }, 'coder')).toBe(true);
  });

  it('refuses a role that is not listed', () => {
    expect(mayLearn({ enabled: true, roles: ['reviewer'] }, 'coder')).toBe(false);
  });

  it('refuses every role when learning is disabled, even a listed one', () => {
    expect(mayLearn({ enabled: false, roles: ['coder', '*'] }, 'coder')).toBe(false);
  });

  it('lets every role learn when the roles include *', () => {
    expect(mayLearn({ enabled: true, roles: ['*'] }, 'judge')).toBe(true);
  });

  it('defaults to learning for the coder only', () => {
    const config = learningConfigSchema.parse({});
    expect(mayLearn(config, 'coder')).toBe(true);
    expect(mayLearn(config, 'reviewer')).toBe(false);
  });
});
