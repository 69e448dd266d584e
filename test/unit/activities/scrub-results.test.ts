import { ApplicationFailure } from '@temporalio/common';
import { afterEach, describe, expect, it } from 'vitest';
import { declaredNamesOf, scrubbingResults } from '../../../activities/scrub-results.js';
import { refuseSecretInGoal } from '../../../activities/secret-in-task.js';

const secret = 'hunter2-declared-value';
afterEach(() => {
  delete process.env.SCRUB_TEST_DECLARED;
  delete process.env.SCRUB_TEST_API_TOKEN;
});

describe('scrubbingResults', () => {
  it("removes a declared secret's value from every string of a result, file names and keys included", async () => {
    process.env.SCRUB_TEST_DECLARED = secret;
    const activities = scrubbingResults({
      review: async (_input: { secretEnvNames: string[] }) => ({
        changedFiles: [`src/${secret}.py`, 'src/ok.py'],
        findings: [{ rule: 'secret_in_diff', message: `found in ${secret}.py`, file: `src/${secret}.py` }],
        byFile: { [`src/${secret}.py`]: 1 },
      }),
    });
    const result = await activities.review({ secretEnvNames: ['SCRUB_TEST_DECLARED'] });
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(result.changedFiles).toEqual(['src/[redacted].py', 'src/ok.py']);
    expect(Object.keys(result.byFile)).toEqual(['src/[redacted].py']);
  });

  it("removes a secret's base64 and hex forms too (a file named after the secret encoded)", async () => {
    process.env.SCRUB_TEST_DECLARED = secret;
    const encoded = [Buffer.from(secret).toString('base64url'), Buffer.from(secret).toString('hex')];
    const activities = scrubbingResults({
      code: async (_input: { secretEnvNames: string[] }) => ({ changedFiles: encoded.map((form) => `src/${form}.py`) }),
    });
    const result = await activities.code({ secretEnvNames: ['SCRUB_TEST_DECLARED'] });
    expect(result.changedFiles).toEqual(['src/[redacted].py', 'src/[redacted].py']);
  });

  it("scrubs a failure's message and details, keeping its type and retryability", async () => {
    process.env.SCRUB_TEST_API_TOKEN = secret; // secret-named: scrubbed without being declared
    const activities = scrubbingResults({
      fail: async () => {
        throw ApplicationFailure.create({
          type: 'WorktreeError',
          message: `cannot add ${secret}.py`,
          nonRetryable: true,
          details: [{ file: `${secret}.py` }],
        });
      },
    });
    const failure = await activities.fail().catch((error: unknown) => error as ApplicationFailure);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure.message).toBe('cannot add [redacted].py');
    expect(failure.type).toBe('WorktreeError');
    expect(failure.nonRetryable).toBe(true);
    expect(JSON.stringify(failure.details)).not.toContain(secret);

    const quiet = scrubbingResults({
      fail: async () => {
        throw ApplicationFailure.create({
          type: 'CoderFailed',
          message: 'no secret here',
          details: [{ file: secret }],
        });
      },
    });
    const detailsOnly = await quiet.fail().catch((error: unknown) => error as ApplicationFailure);
    expect(detailsOnly.type).toBe('CoderFailed');
    expect(JSON.stringify(detailsOnly.details)).not.toContain(secret);
  });

  it('reads the declared names at the top of the input or in its review settings', () => {
    expect(declaredNamesOf({ secretEnvNames: ['A'] })).toEqual(['A']);
    expect(declaredNamesOf({ review: { secretEnvNames: ['B', 3] } })).toEqual(['B']);
    expect(declaredNamesOf('text')).toEqual([]);
  });
});

describe('refuseSecretInGoal', () => {
  it("fails non-retryably naming the field, never the value, when the goal or hint holds a declared secret's value", () => {
    const env = { MY_DEPLOY_VALUE: secret };
    const refuse = () =>
      refuseSecretInGoal({ goal: `fix login for ${secret}`, secretEnvNames: ['MY_DEPLOY_VALUE'] }, env);
    expect(refuse).toThrow(ApplicationFailure);
    try {
      refuse();
    } catch (error) {
      const failure = error as ApplicationFailure;
      expect(failure.type).toBe('SecretInGoal');
      expect(failure.nonRetryable).toBe(true);
      expect(failure.message).toContain('goal holds the value of a secret environment variable');
      expect(failure.message).not.toContain(secret);
    }
    expect(() =>
      refuseSecretInGoal({ goal: 'fix it', hint: `use ${secret}`, secretEnvNames: ['MY_DEPLOY_VALUE'] }, env),
    ).toThrow(/hint holds/);
    expect(() => refuseSecretInGoal({ goal: 'fix login', secretEnvNames: ['MY_DEPLOY_VALUE'] }, env)).not.toThrow();
  });
});
