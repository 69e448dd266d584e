import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../client/cli-errors.js';
import { refuseSecretsInTask } from '../../../../client/tasks/refuse-secrets.js';

describe('refuseSecretsInTask', () => {
  const env = { MY_CANARY: 'canary-declared-123', SERVICE_TOKEN: 'canary-detected-456' };

  it('refuses a goal holding a declared secret, naming the field but not the value', () => {
    const attempt = () =>
      refuseSecretsInTask({ goal: 'log in with canary-declared-123', testEnv: {}, secretEnvNames: ['MY_CANARY'] }, env);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/^invalid task: goal holds the value of a secret environment variable/);
    expect(attempt).not.toThrow(/canary-declared-123/);
  });

  it('refuses a test environment value found by name pattern, and passes a clean task', () => {
    expect(() =>
      refuseSecretsInTask({ goal: 'fix', testEnv: { URL: 'x?t=canary-detected-456' }, secretEnvNames: [] }, env),
    ).toThrow(/testEnv\.URL holds/);
    expect(() =>
      refuseSecretsInTask({ goal: 'fix add', testEnv: { MODE: 'fast' }, secretEnvNames: ['MY_CANARY'] }, env),
    ).not.toThrow();
  });
});
