import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../client/cli-errors.js';
import { checkRunInput, parseRunFlags } from '../../../../client/tasks/run-flags.js';
import { deriveTaskId } from '../../../../client/tasks/task-id.js';

const base = ['--repo', 'app', '--goal', 'Fix add', '--model', 'openai:gpt-4o-mini'];

describe('parseRunFlags', () => {
  it('maps every flag to its spec field', () => {
    const request = parseRunFlags(
      [
        ...base,
        '--id',
        'fix-add',
        '--project',
        'calc',
        '--base-ref',
        'main',
        '--test-command',
        'python3 -m pytest -k "add or mul"',
        '--test-env',
        'A=1',
        '--test-env',
        'B=x=y',
        '--acceptance',
        'tests/test_calc.py::test_add',
        '--acceptance',
        'tests/test_calc.py::test_mul',
        '--allow-path',
        'calc.py',
        '--allow-test-edits',
        '--max-retries',
        '1',
        '--max-steps',
        '12',
        '--retry-window',
        '10m',
        '--secret-env',
        'OPENAI_API_KEY',
        '--environment',
        'auto',
        '--task-queue',
        'q1',
        '--wait',
        '--json',
        '--skip-provider-check',
      ],
      '/work',
      {},
    );
    expect(request).toEqual({
      taskQueue: 'q1',
      wait: true,
      json: true,
      skipProviderCheck: true,
      allowDirty: false,
      environmentOrigin: '--environment',
      coderChoice: { flag: undefined, config: undefined },
      input: {
        id: 'fix-add',
        project: 'calc',
        repo: 'app',
        baseRef: 'main',
        goal: 'Fix add',
        models: { coder: 'openai:gpt-4o-mini' },
        testCommand: ['python3', '-m', 'pytest', '-k', 'add or mul'],
        testEnv: { A: '1', B: 'x=y' },
        acceptanceTests: ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_mul'],
        allowedPaths: ['calc.py'],
        allowTestEdits: true,
        maxRetries: 1,
        maxCoderSteps: 12,
        retryWindowMs: 600_000,
        secretEnvNames: ['OPENAI_API_KEY'],
        environment: 'auto',
      },
    });
  });

  it('derives the id from the goal and the absolute repository path, and takes the queue from the environment', () => {
    const request = parseRunFlags(base, '/work', { TASKLOOP_TASK_QUEUE: 'env-queue' });
    expect(request.input.id).toBe(deriveTaskId('Fix add', '/work/app'));
    expect(request.taskQueue).toBe('env-queue');
    expect(parseRunFlags(base, '/work', {}).taskQueue).toBe('taskloop');
  });

  it.each([
    [['--colour', 'red'], /Unknown option '--colour'/],
    [['--test-env', 'NOEQUALS'], /--test-env must be NAME=VALUE, got "NOEQUALS"/],
    [['--retry-window', 'soon'], /--retry-window \(retryWindowMs\): expected a duration like 30s/],
    [['--test-command', 'pytest "unclosed'], /--test-command: unterminated " quote/],
  ])('refuses %j with a usage error naming the flag', (extra, message) => {
    expect(() => parseRunFlags([...base, ...extra], '/work', {})).toThrow(message);
    expect(() => parseRunFlags([...base, ...extra], '/work', {})).toThrow(UsageError);
  });
});

describe('checkRunInput', () => {
  it('keeps the schema fix for fields without a CLI wording', () => {
    const input = parseRunFlags([...base, '--secret-env', '1BAD'], '/work', {}).input;
    expect(() => checkRunInput(input)).toThrow(
      /--secret-env \(secretEnvNames\.0\): .*got "1BAD" \(write it like "OPENAI_API_KEY"\)/,
    );
  });

  it('takes --samples as the spec’s samples, and refuses more than 8 naming the flag and the fix', () => {
    expect(parseRunFlags([...base, '--samples', '3'], '/work', {}).input.samples).toBe(3);
    const input = parseRunFlags([...base, '--samples', '9'], '/work', {}).input;
    expect(() => checkRunInput(input)).toThrow(
      'taskloop run: --samples (samples): expected a whole number from 1 to 8 (candidate coder runs an attempt, the first whose tests pass kept), got 9 (pass e.g. --samples 3, or leave it out for one coder run an attempt)',
    );
  });

  it('takes --approval and --approval-timeout, over the config file, and refuses an unknown mode naming the modes', () => {
    const config = { approval: 'none' as const, approvalTimeoutMs: 60_000 };
    const input = parseRunFlags(
      [...base, '--approval', 'required', '--approval-timeout', '2d'],
      '/work',
      {},
      config,
    ).input;
    expect(input).toMatchObject({ approval: 'required', approvalTimeoutMs: 2 * 86_400_000 });
    expect(parseRunFlags(base, '/work', {}, { approval: 'required' }).input.approval).toBe('required');
    expect(parseRunFlags(base, '/work', {}, config).input.approvalTimeoutMs).toBe(60_000);
    const bad = parseRunFlags([...base, '--approval', 'maybe'], '/work', {}).input;
    expect(() => checkRunInput(bad)).toThrow(
      'taskloop run: --approval (approval): Invalid option: expected one of "required"|"none", got "maybe"',
    );
  });

  it('accepts a complete input', () => {
    expect(() => checkRunInput(parseRunFlags(base, '/work', {}).input)).not.toThrow();
  });

  it('names the flag, the field and the value received', () => {
    const input = parseRunFlags([...base, '--max-retries', 'three'], '/work', {}).input;
    expect(() => checkRunInput(input)).toThrow(
      `taskloop run: --max-retries (maxRetries): expected a whole number from 0 to 2 (the loop's retry cap: at most 3 coder attempts), got "three" (pass --max-retries 0, 1 or 2: the loop caps retries at 2)`,
    );
  });

  it('says which required flag is missing, one line per problem', () => {
    const input = parseRunFlags(['--repo', 'app'], '/work', {}).input;
    const error = (() => {
      try {
        checkRunInput(input);
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UsageError);
    const lines = error?.message.split('\n') ?? [];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^taskloop run: --goal \(goal\): .*got nothing \(pass e\.g\. --goal "fix #218: cache_key is ignored"\)$/,
    );
    expect(lines[1]).toMatch(
      /^taskloop run: --model \(models\): .*got nothing \(pass --model openai:<model>, anthropic:<model>, local:<model> or scripted:<file>\)$/,
    );
  });
});
