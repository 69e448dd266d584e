import { describe, expect, it } from 'vitest';
import { parseTaskSpec, taskWorkflowId, type TaskSpecInput } from '../../../domain/task-spec.js';

const minimal: TaskSpecInput = {
  id: 'fix-cache-key',
  repo: './repo',
  goal: 'fix #218: cache_key is ignored',
  models: { coder: 'scripted:turns.json' },
};

function expectFailure(input: unknown) {
  const result = parseTaskSpec(input);
  if (result.success) throw new Error('expected the spec to be refused');
  return result;
}

describe('parseTaskSpec', () => {
  it('applies every default to a minimal spec', () => {
    const result = parseTaskSpec(minimal);
    expect(result).toEqual({
      success: true,
      data: {
        ...minimal,
        project: 'default',
        baseRef: 'HEAD',
        testCommand: ['python3', '-m', 'pytest'],
        testEnv: {},
        testTimeoutMs: 600_000,
        acceptanceTests: [],
        allowedPaths: [],
        allowTestEdits: false,
        maxRetries: 2,
        maxCoderSteps: 30,
        retryWindowMs: 0,
        approval: 'none',
        approvalTimeoutMs: 7 * 86_400_000,
        secretEnvNames: [],
        envRetryLimit: 3,
        hostLostAfterMs: 45_000,
        heartbeatTimeoutMs: 20_000,
        budgets: { maxModelCalls: 200, maxTokens: 2_000_000, maxCostUsd: 20, maxWallTimeMs: 7_200_000, prices: {} },
      },
    });
  });

  it('gives each parse its own default arrays and objects', () => {
    const first = parseTaskSpec(minimal);
    const second = parseTaskSpec(minimal);
    if (!first.success || !second.success) throw new Error('expected both to parse');
    first.data.testCommand.push('-x');
    first.data.testEnv.A = '1';
    expect(second.data.testCommand).toEqual(['python3', '-m', 'pytest']);
    expect(second.data.testEnv).toEqual({});
  });

  it('keeps values that sit exactly on the limits', () => {
    const result = parseTaskSpec({
      ...minimal,
      id: 'a'.repeat(64),
      goal: 'g'.repeat(20_000),
      testTimeoutMs: 1_000,
      maxRetries: 2,
      maxCoderSteps: 200,
      envRetryLimit: 0,
      models: {
        coder: 'openai:gpt-4o-mini',
        reviewer: 'anthropic:claude',
        judge: 'scripted:j.json',
        skillWriter: 'openai:x',
      },
    });
    expect(result.success).toBe(true);
  });

  it('names the field, the value and the fix in the example format', () => {
    const failure = expectFailure({ ...minimal, maxRetries: 'three' });
    expect(failure.error).toBe(
      `maxRetries: expected a whole number from 0 to 2 (the loop's retry cap: at most 3 coder attempts), got "three" (set maxRetries to at most 2)`,
    );
    expect(failure.issues).toEqual([
      {
        field: 'maxRetries',
        value: 'three',
        message: `expected a whole number from 0 to 2 (the loop's retry cap: at most 3 coder attempts), got "three" (set maxRetries to at most 2)`,
      },
    ]);
  });

  it('refuses numbers just outside the limits and fractions', () => {
    expect(expectFailure({ ...minimal, maxRetries: 3 }).error).toContain(
      `maxRetries: expected a whole number from 0 to 2 (the loop's retry cap: at most 3 coder attempts), got 3`,
    );
    expect(expectFailure({ ...minimal, maxRetries: 1.5 }).error).toContain('got 1.5');
    expect(expectFailure({ ...minimal, testTimeoutMs: 999 }).error).toMatch(/^testTimeoutMs: .*got 999/);
    expect(expectFailure({ ...minimal, maxCoderSteps: 0 }).error).toMatch(/^maxCoderSteps: .*got 0/);
    expect(expectFailure({ ...minimal, retryWindowMs: -1 }).error).toMatch(/^retryWindowMs: .*got -1/);
    expect(expectFailure({ ...minimal, goal: 'g'.repeat(20_001) }).error).toMatch(
      /^goal: expected a goal of 1 to 20000 characters/,
    );
  });

  it('writes one line per issue and one per field even when several checks fail', () => {
    const failure = expectFailure({ ...minimal, id: '', maxRetries: -1, envRetryLimit: 11 });
    expect(failure.error.split('\n').map((line) => line.split(':')[0])).toEqual(['id', 'maxRetries', 'envRetryLimit']);
  });

  it('refuses a heartbeat timeout shorter than the longest stretch a step goes without a heartbeat', () => {
    expect(expectFailure({ ...minimal, heartbeatTimeoutMs: 5_000 }).error).toBe(
      'heartbeatTimeoutMs: expected a whole number of milliseconds from 10000 to 600000, got 5000 (set heartbeatTimeoutMs to e.g. 20000)',
    );
  });

  it('says a missing required field got nothing', () => {
    const { repo: _repo, ...withoutRepo } = minimal;
    expect(expectFailure(withoutRepo).error).toBe(
      'repo: expected a non-empty path to a git repository, got nothing (set repo to e.g. "./my-repo")',
    );
  });

  it('refuses ids that do not fit the pattern', () => {
    for (const id of ['-leading-dash', 'has space', 'a'.repeat(65), 'slash/inside']) {
      expect(expectFailure({ ...minimal, id }).issues[0]?.field).toBe('id');
    }
    expect(expectFailure({ ...minimal, project: '.hidden' }).issues[0]?.field).toBe('project');
  });

  it('explains the model spec format', () => {
    const failure = expectFailure({ ...minimal, models: { coder: 'gpt-4o' } });
    expect(failure.error).toContain(
      'models.coder: expected a model spec matching "openai:<model>", "anthropic:<model>", "local:<model>" or "scripted:<file>", or {"model": <spec>, "contextWindow": <tokens>, "serverWaitMs": <ms>}, got "gpt-4o"',
    );
    expect(expectFailure({ ...minimal, models: {} }).error).toMatch(/^models\.coder: .*got nothing/);
    expect(expectFailure({ ...minimal, models: { coder: 'openai:' } }).issues[0]?.field).toBe('models.coder');
  });

  it('refuses unknown keys at the top level and in models, naming them', () => {
    const failure = expectFailure({ ...minimal, maxRetry: 3, models: { coder: 'openai:x', reviwer: 'openai:y' } });
    expect(failure.issues.map((issue) => issue.field).sort()).toEqual(['maxRetry', 'models.reviwer']);
    const line = failure.error.split('\n').find((text) => text.startsWith('maxRetry:'));
    expect(line).toContain('unknown field, got 3 (remove maxRetry or fix its spelling; known fields: id, project,');
    expect(failure.error).toContain('known fields: coder, reviewer, judge, skillWriter');
  });

  it('points at the bad element of an array or record', () => {
    expect(expectFailure({ ...minimal, testCommand: ['python3', ''] }).error).toBe(
      'testCommand.1: expected a non-empty string, got "" (remove empty or non-string arguments from testCommand)',
    );
    expect(expectFailure({ ...minimal, testCommand: [] }).issues[0]?.field).toBe('testCommand');
    expect(expectFailure({ ...minimal, testEnv: { SEED: 1 } }).error).toBe(
      'testEnv.SEED: expected a string value, got 1 (quote the value, e.g. "1")',
    );
    expect(expectFailure({ ...minimal, secretEnvNames: ['1BAD'] }).issues[0]?.field).toBe('secretEnvNames.0');
  });

  it('truncates long received values to 80 characters', () => {
    const failure = expectFailure({ ...minimal, allowTestEdits: 'x'.repeat(500) });
    const got = /got (.*) \(set allowTestEdits/.exec(failure.error)?.[1] ?? '';
    expect(got.length).toBe(80);
    expect(got.endsWith('…')).toBe(true);
  });

  it('refuses input that is not an object', () => {
    for (const input of [null, 3, 'spec', []]) {
      expect(expectFailure(input).issues[0]?.field).toBe('(task spec)');
    }
    expect(expectFailure(3).error).toContain('got 3');
  });
});

describe('taskWorkflowId', () => {
  it('joins project and id', () => {
    expect(taskWorkflowId({ project: 'default', id: 'fix-1' })).toBe('task-default-fix-1');
  });
});
