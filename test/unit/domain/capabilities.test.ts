import { describe, expect, it } from 'vitest';
import { findMissingCapability } from '../../../domain/capabilities.js';
import { classifyCause } from '../../../domain/failure-causes.js';
import { decideNext } from '../../../domain/retry-decision.js';

describe('findMissingCapability', () => {
  it('names role, version and the capability a coder without WRITE_WORKTREE lacks', () => {
    const cause = findMissingCapability({
      role: 'coder',
      version: 'coder-investigator',
      granted: ['READ_REPOSITORY', 'RUN_TESTS'],
    });
    expect(cause).toMatchObject({
      kind: 'CapabilityMissing',
      details: { role: 'coder', version: 'coder-investigator', capability: 'WRITE_WORKTREE' },
    });
    expect(cause?.message).toContain('coder/coder-investigator lacks WRITE_WORKTREE');
  });

  it('finds nothing missing when every required capability is granted, or when the role needs none', () => {
    expect(
      findMissingCapability({ role: 'coder', version: 'c', granted: ['READ_REPOSITORY', 'WRITE_WORKTREE'] }),
    ).toBeUndefined();
    expect(findMissingCapability({ role: 'judge', version: 'j', granted: [] })).toBeUndefined();
    expect(
      findMissingCapability({
        role: 'coder',
        version: 'c',
        granted: ['READ_REPOSITORY', 'WRITE_WORKTREE'],
        required: ['RUN_TESTS'],
      })?.details.capability,
    ).toBe('RUN_TESTS');
  });

  it('is classed missing_capability and fails the task at once', () => {
    const cause = findMissingCapability({ role: 'coder', version: 'ro', granted: ['READ_REPOSITORY'] });
    if (!cause) throw new Error('expected a missing capability');
    const { failureClass, retry } = classifyCause(cause, 'code');
    expect(failureClass).toBe('missing_capability');
    const decision = decideNext({
      failureClass,
      retry,
      node: 'code',
      retriesSpent: 0,
      maxRetries: 2,
      envRetriesUsed: 0,
      envRetryLimit: 3,
      baseBackoffMs: 1000,
    });
    expect(decision.kind).toBe('fail');
  });
});
