import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTests } from '../../../../activities/tests/run-tests.js';
import { removeDirs, writeFiles } from '../../../support/git-repo.js';
import { makePythonProject, processesWith, waitFor } from './python-project.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const passingTests = {
  'tests/test_calc.py': [
    'from calc import add',
    '',
    'def test_add():',
    '    assert add(1, 2) == 3',
    '',
    'class TestCalc:',
    '    def test_zero(self):',
    '        assert add(0, 0) == 0',
    '',
  ].join('\n'),
};

// A test that starts a sleeping child marked by a unique number, then sleeps itself: only killing the group ends both.
const spawningTest = (marker: string) =>
  [
    'import subprocess, sys, time',
    '',
    'def test_hangs():',
    `    subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)', '${marker}'])`,
    '    time.sleep(120)',
    '',
  ].join('\n');
const uniqueMarker = () => `marker-${process.pid}-${Math.random().toString(36).slice(2)}`;

describe('runTests with pytest', () => {
  it('reports a passing run with pytest-like ids and stores the logs', async () => {
    const input = await makePythonProject(passingTests, dirs);

    const result = await runTests(input);

    expect(result.outcome).toBe('passed');
    expect(result.patterns).toBeUndefined();
    expect(result.exitCode).toBe(0);
    expect(result.reason).toBeUndefined();
    expect(result.counts).toEqual({ total: 2, passed: 2, failed: 0, errors: 0, skipped: 0 });
    expect(result.cases.map((entry) => entry.id).sort()).toEqual([
      'tests/test_calc.py::TestCalc::test_zero',
      'tests/test_calc.py::test_add',
    ]);
    expect(result.stdoutExcerpt).toContain('2 passed');
    expect(result.log?.path).toBe(path.join(input.artifactDir, 'test-stdout.log'));
    expect(await readFile(result.log?.path ?? '', 'utf8')).toContain('2 passed');
    expect(existsSync(path.join(input.artifactDir, 'test-stderr.log'))).toBe(true);
    expect(existsSync(path.join(input.artifactDir, 'junit.xml'))).toBe(true);
    // The run must not dirty the worktree.
    expect(existsSync(path.join(input.worktreePath, '.pytest_cache'))).toBe(false);
    expect(existsSync(path.join(input.worktreePath, '__pycache__'))).toBe(false);
    expect(existsSync(path.join(input.worktreePath, 'tests', '__pycache__'))).toBe(false);
  });

  it('reports a failing test by id with the assertion in the excerpt', async () => {
    const input = await makePythonProject(
      {
        'tests/test_calc.py':
          'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 4\n\ndef test_ok():\n    pass\n',
      },
      dirs,
    );

    const result = await runTests(input);

    expect(result.outcome).toBe('failed');
    expect(result.exitCode).toBe(1);
    expect(result.cases[0]).toEqual({ id: 'tests/test_calc.py::test_add', outcome: 'failed' });
    expect(result.counts).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(result.stdoutExcerpt).toContain('assert 3 == 4');
    expect(result.patterns?.[0]).toMatchObject({ type: 'wrong_constant', strategy: 'prioritize_constants' });
  });

  it('reports a collection error as an error naming pytest exit 2', async () => {
    const input = await makePythonProject(
      { 'tests/test_broken.py': 'import no_such_module_here\n\ndef test_x():\n    pass\n' },
      dirs,
    );

    const result = await runTests(input);

    expect(result.outcome).toBe('error');
    expect(result.exitCode).toBe(2);
    expect(result.reason).toContain('pytest exit 2');
    expect(result.cases).toContainEqual({ id: 'tests/test_broken.py', outcome: 'error' });
    expect(result.stdoutExcerpt).toContain('no_such_module_here');
    expect(result.patterns?.[0]).toMatchObject({ type: 'test_infra', symbols: ['no_such_module_here'] });
    expect(result.cause).toMatchObject({ kind: 'MissingThirdPartyModule', details: { module: 'no_such_module_here' } });
  });

  it('reports a run without tests as an environment problem', async () => {
    const input = await makePythonProject({ 'tests/helper.py': 'X = 1\n' }, dirs);

    const result = await runTests(input);

    expect(result).toMatchObject({
      outcome: 'error',
      exitCode: 5,
      reason:
        "no tests collected (pytest exit 5): check testCommand's paths and -k/-m selections, and that test files are named test_*.py",
    });
  });

  it('bounds the cases, failing ones first, and says it cut them', async () => {
    const input = await makePythonProject(
      {
        'tests/test_many.py': 'def test_a():\n    pass\n\ndef test_b():\n    pass\n\ndef test_c():\n    assert False\n',
      },
      dirs,
    );

    const result = await runTests({ ...input, maxCases: 1 });

    expect(result.cases).toEqual([{ id: 'tests/test_many.py::test_c', outcome: 'failed' }]);
    expect(result.casesTruncated).toBe(true);
    expect(result.counts.total).toBe(3);
  });

  it('redacts a secret value printed by a test in the excerpt and in every stored log', async () => {
    const secret = 'hunter2-very-secret-value';
    const input = await makePythonProject(
      {
        'tests/test_leak.py':
          'import os\n\ndef test_leak():\n    print(os.environ["DEMO_VALUE"])\n    assert os.environ["DEMO_VALUE"] == "x"\n',
      },
      dirs,
    );

    const result = await runTests({
      ...input,
      testEnv: { ...input.testEnv, DEMO_VALUE: secret },
      secretValues: [secret],
    });

    expect(result.outcome).toBe('failed');
    expect(result.stdoutExcerpt).toContain('[redacted]');
    expect(result.stdoutExcerpt).not.toContain(secret);
    for (const name of ['test-stdout.log', 'test-stderr.log', 'junit.xml']) {
      expect(readFileSync(path.join(input.artifactDir, name), 'utf8')).not.toContain(secret);
    }
  });

  it('keeps a secret-named variable and unlisted worker variables away from the test process', async () => {
    const input = await makePythonProject(
      { 'tests/test_env.py': 'import os\n\ndef test_env():\n    print("ENV:" + ",".join(sorted(os.environ)))\n' },
      dirs,
    );
    const testEnv = { API_TOKEN: 'tok-1234567890', VISIBLE_SETTING: 'yes', PYTHONPATH: input.worktreePath };
    process.env.WORKER_ONLY_SETTING = 'leak';
    const result = await runTests({ ...input, command: [...input.command, '-s'], testEnv }).finally(
      () => delete process.env.WORKER_ONLY_SETTING,
    );

    const line = result.stdoutExcerpt.split('\n').find((text) => text.includes('ENV:')) ?? '';
    expect(line).toContain('VISIBLE_SETTING');
    expect(line).toContain('PYTHONDONTWRITEBYTECODE');
    expect(line).not.toContain('API_TOKEN');
    expect(line).not.toContain('WORKER_ONLY_SETTING');
  });

  it('kills the whole process tree on timeout and says so', async () => {
    const input = await makePythonProject({}, dirs);
    const marker = uniqueMarker();
    await writeFiles(input.worktreePath, { 'tests/test_hang.py': spawningTest(marker) });

    const result = await runTests({ ...input, timeoutMs: 5_000 });

    expect(result).toMatchObject({
      outcome: 'error',
      reason: 'timeout: test command exceeded 5000 ms',
      exitCode: null,
      cause: { kind: 'TestTimeout' },
    });
    expect(await waitFor(() => processesWith(marker).length === 0)).toBe(true);
  });

  it('kills the whole process tree when cancelled through the abort signal', async () => {
    const input = await makePythonProject({}, dirs);
    const marker = uniqueMarker();
    await writeFiles(input.worktreePath, { 'tests/test_hang.py': spawningTest(marker) });
    const controller = new AbortController();

    const run = runTests({ ...input, signal: controller.signal });
    const started = await waitFor(() => processesWith(marker).length > 0, 20_000);
    controller.abort(new Error('cancelled by test'));

    await expect(run).rejects.toThrow('cancelled by test');
    expect(started).toBe(true);
    expect(await waitFor(() => processesWith(marker).length === 0)).toBe(true);
  });

  it('heartbeats with the elapsed time while the command runs', async () => {
    const input = await makePythonProject({}, dirs);
    const beats: unknown[] = [];

    await runTests({
      ...input,
      command: ['python3', '-c', 'import time; time.sleep(1)'],
      heartbeat: (details) => beats.push(details),
      heartbeatIntervalMs: 100,
    });

    expect(beats.length).toBeGreaterThan(0);
    expect(beats[0]).toMatchObject({ elapsedMs: expect.any(Number) });
  });
});

describe('runTests with other commands', () => {
  it('reports a missing program as an environment problem without throwing', async () => {
    const input = await makePythonProject({}, dirs);

    const result = await runTests({ ...input, command: ['no-such-test-runner-xyz', 'run'] });

    expect(result).toMatchObject({
      outcome: 'error',
      reason: 'environment problem: test command not found: no-such-test-runner-xyz',
      cases: [],
    });
  });

  it('treats exit 0 as passed and any other exit as failed, with no cases', async () => {
    const input = await makePythonProject({}, dirs);

    const passed = await runTests({ ...input, command: ['python3', '-c', 'print("fine")'] });
    const failed = await runTests({ ...input, command: ['python3', '-c', 'import sys; sys.exit(3)'] });

    expect(passed).toMatchObject({ outcome: 'passed', exitCode: 0, cases: [] });
    expect(passed.stdoutExcerpt).toBe('fine\n');
    expect(failed).toMatchObject({ outcome: 'failed', exitCode: 3, cases: [], counts: { total: 0 } });
    expect(existsSync(path.join(input.artifactDir, 'junit.xml'))).toBe(false);
  });

  it('refuses an empty command as a non-retryable input error', async () => {
    const input = await makePythonProject({}, dirs);
    await expect(runTests({ ...input, command: [] })).rejects.toMatchObject({
      type: 'InvalidTestCommand',
      nonRetryable: true,
    });
  });
});
