import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  filesOfDiff,
  goalOf,
  MAX_GOAL_CHARS,
  parseSweBenchJsonl,
  predictionModelName,
  predictionsJsonl,
} from '../../../../domain/eval/swe-bench.js';

const tiny = readFileSync(new URL('../../../fixtures/swe-bench/tiny.jsonl', import.meta.url), 'utf8');
const firstRow = () => JSON.parse(tiny.split('\n')[0] ?? '{}') as Record<string, unknown>;
const withRow = (change: Record<string, unknown>) => JSON.stringify({ ...firstRow(), ...change });

describe('parseSweBenchJsonl', () => {
  it('reads rows in the official shape: test lists as JSON-encoded strings or as arrays, extra fields ignored', () => {
    const parsed = parseSweBenchJsonl(tiny);
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.rows.map((row) => [row.instance_id, row.FAIL_TO_PASS, row.PASS_TO_PASS])).toEqual([
      ['example__calc-1', ['tests/test_calc.py::test_add'], []],
      ['example__calc-2', ['tests/test_calc.py::test_add'], ['tests/test_calc.py::test_sub[1-2]']],
    ]);
    expect(parsed.lines).toEqual([1, 2]);
  });

  it('names the line, the field, the value and the fix of every problem', () => {
    const text = [
      withRow({ FAIL_TO_PASS: '["tests/x.py::a"' }),
      '',
      withRow({ instance_id: 'django__django-1', FAIL_TO_PASS: '["test_add (calc.tests.AddTests)"]' }),
      withRow({ base_commit: 'abc' }),
      '{"instance_id": "x"',
    ].join('\n');
    const parsed = parseSweBenchJsonl(text);
    expect(parsed.success).toBe(false);
    const issues = parsed.success ? [] : parsed.issues;
    expect(issues).toContainEqual({
      line: 1,
      field: 'FAIL_TO_PASS',
      message:
        'expected a non-empty list of pytest node ids of files inside the repository (no ".." segment, no leading "/"; a JSON array, or a string holding one), got "[\\"tests/x.py::a\\""; fix: e.g. ["tests/test_x.py::test_y"]; only pytest repositories are supported',
    });
    expect(issues).toContainEqual(
      expect.objectContaining({
        line: 3,
        field: 'FAIL_TO_PASS.0',
        message: expect.stringContaining('test_add (calc.tests.AddTests)'),
      }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({
        line: 4,
        field: 'base_commit',
        message: expect.stringContaining('got "abc"; fix: copy base_commit'),
      }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ line: 5, field: '(line)', message: expect.stringMatching(/^not JSON/) }),
    );
    expect(issues.map((issue) => issue.line)).toEqual([1, 3, 4, 5]);
    const twice = parseSweBenchJsonl([withRow({}), '', withRow({})].join('\n'));
    expect(twice.success ? [] : twice.issues).toEqual([
      { line: 3, field: 'instance_id', message: '"example__calc-1" is already on line 1; fix: one line per instance' },
    ]);
  });

  it('refuses at input an instance id git takes in no branch name, and a test outside the repository', () => {
    const text = [
      withRow({ instance_id: 'calc..1' }),
      withRow({ instance_id: 'calc-2.lock' }),
      withRow({ instance_id: 'calc-3', FAIL_TO_PASS: ['../outside/test_x.py::test_a'] }),
      withRow({ instance_id: 'calc-4', PASS_TO_PASS: '["tests/../../test_y.py::t"]' }),
      withRow({ instance_id: 'calc-5', FAIL_TO_PASS: ['/etc/test_z.py::t'] }),
    ].join('\n');
    const parsed = parseSweBenchJsonl(text);
    const issues = parsed.success ? [] : parsed.issues;
    expect(issues.map((issue) => [issue.line, issue.field])).toEqual([
      [1, 'instance_id'],
      [2, 'instance_id'],
      [3, 'FAIL_TO_PASS.0'],
      [4, 'PASS_TO_PASS.0'],
      [5, 'FAIL_TO_PASS.0'],
    ]);
    expect(issues[0]?.message).toBe(
      'expected 1 to 40 letters, digits, ".", "_" or "-" that git takes in a branch name (no "..", not ending in "." or ".lock"), got "calc..1"; fix: use the dataset\'s id, e.g. "psf__requests-2317"',
    );
    expect(issues[2]?.message).toContain('inside the repository (no ".." segment');
    const huge = parseSweBenchJsonl(withRow({ patch: `diff --git a/x b/x\n${'+x\n'.repeat(20_000_000)}` }));
    expect(huge.success ? [] : huge.issues).toEqual([
      expect.objectContaining({
        line: 1,
        field: 'patch',
        message: expect.stringContaining('of at most 10000000 characters'),
      }),
    ]);
  });

  it("reads taskloop's own fields, and names a bad one with its fix", () => {
    const parsed = parseSweBenchJsonl(withRow({ max_steps: 8, test_env: { PYTHONPATH: 'src' } }));
    expect(parsed.success && parsed.rows[0]).toMatchObject({ max_steps: 8, test_env: { PYTHONPATH: 'src' } });
    const bad = parseSweBenchJsonl(withRow({ max_steps: 0 }));
    expect(bad.success ? [] : bad.issues).toEqual([
      {
        line: 1,
        field: 'max_steps',
        message: "expected a whole number from 1 to 200, got 0; fix: the coder's step limit per attempt, e.g. 20",
      },
    ]);
  });

  it('refuses an empty file', () => {
    expect(parseSweBenchJsonl('\n\n')).toEqual({
      success: false,
      issues: [{ line: 1, field: '(file)', message: 'no instances; fix: one JSON object a line' }],
    });
  });
});

describe('SWE-bench helpers', () => {
  it('cuts a problem statement past the goal limit with a marker', () => {
    const parsed = parseSweBenchJsonl(withRow({ problem_statement: 'x'.repeat(MAX_GOAL_CHARS + 10) }));
    const row = parsed.success ? parsed.rows[0] : undefined;
    expect(row && goalOf(row).length).toBe(MAX_GOAL_CHARS);
    expect(row && goalOf(row)).toMatch(/problem statement cut to fit the goal limit\]$/);
  });

  it('lists the files of a diff, names an arm without slashes, and writes one JSON object a line', () => {
    const row = firstRow();
    expect(filesOfDiff(String(row.test_patch))).toEqual(['tests/test_calc.py']);
    expect(predictionModelName({ model: 'openai:qwen/coder 1.5b', agent: 'coder-small', learning: false })).toBe(
      'taskloop__coder-small__openai:qwen_coder_1.5b__learning-off',
    );
    const text = predictionsJsonl([{ instance_id: 'a', model_name_or_path: 'm', model_patch: 'diff\n' }]);
    expect(text).toBe('{"instance_id":"a","model_name_or_path":"m","model_patch":"diff\\n"}\n');
  });
});
