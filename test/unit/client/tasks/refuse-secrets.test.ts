import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../client/cli-errors.js';
import { refuseSecretsInHint, refuseSecretsInTask } from '../../../../client/tasks/refuse-secrets.js';

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

describe('refuseSecretsInHint', () => {
  const env = { SERVICE_TOKEN: 'canary-detected-456' };

  it('refuses a hint holding a key format or a secret-named value, naming --hint but not the value', () => {
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const withKey = () => refuseSecretsInHint(`use ${token} to log in`, env);
    expect(withKey).toThrow(UsageError);
    expect(withKey).toThrow(/^invalid --hint: it holds a GitHub/);
    expect(withKey).not.toThrow(new RegExp(token));
    expect(() => refuseSecretsInHint('the token is canary-detected-456', env)).toThrow(
      /^invalid --hint: it holds the value of a secret environment variable/,
    );
  });

  it('passes a plain hint and no hint', () => {
    expect(() => refuseSecretsInHint('check the empty list case first', env)).not.toThrow();
    expect(() => refuseSecretsInHint(undefined, env)).not.toThrow();
  });
});
