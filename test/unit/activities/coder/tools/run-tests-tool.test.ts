import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { narrowCommand, runTestsTool } from '../../../../../activities/coder/tools/run-tests-tool.js';
import type { ToolContext } from '../../../../../activities/coder/tools/types.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../../activities/sandbox/index.js';
import { createTempRepo, createToolContext, type TempRepo } from '../fixtures.js';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_calc.py':
      'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_zero():\n    assert add(0, 0) == 0\n',
  });
});
afterEach(() => t.cleanup());

function withTests(maxRuns = 5): ToolContext {
  const context = createToolContext(t.repo);
  context.tests = {
    command: ['python', '-m', 'pytest', '-q'],
    testEnv: {},
    sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir: t.artifacts })),
    timeoutMs: 60_000,
    secretValues: [],
    artifactDir: t.artifacts,
    hostId: 'h',
    maxRuns,
  };
  return context;
}

describe('run_tests', () => {
  it('runs the suite and replies with counts, the failing id, a pattern and an excerpt; the log is an artifact', async () => {
    const context = withTests();
    const { reply } = await runTestsTool.run({}, context);
    expect(reply).toContain('tests failed: 2 total, 1 passed, 1 failed');
    expect(reply).toContain('- tests/test_calc.py::test_add');
    expect(reply).toContain('assert -1 == 3');
    expect(reply).toContain('in-attempt test runs left: 4');
    const log = /full log: (.+)/.exec(reply)?.[1] ?? '';
    expect(log).toContain(path.join('coder-tests', 'run-1'));
    expect(await readFile(log, 'utf8')).toContain('test_add');
    expect(context.telemetry.inAttemptTestRuns).toBe(1);
  });

  it('runs only the named node ids, and passes once the code is fixed', async () => {
    const context = withTests();
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    const { reply } = await runTestsTool.run({ tests: ['tests/test_calc.py::test_add'] }, context);
    expect(reply).toContain('tests passed: 1 total, 1 passed, 0 failed');
  });

  it('says first that a node id or -k expression named no test (pytest calls it a usage error)', async () => {
    const context = withTests();
    const { reply } = await runTestsTool.run({ tests: ['tests/test_calc.py::test_pluralize'] }, context);
    expect(reply.split('\n')[0]).toBe(
      "error: no test matched tests/test_calc.py::test_pluralize: that names no test of this repository, so nothing was checked. Run the failing test ids the evidence names, or call run_tests with no arguments to run all the task's tests.",
    );
    const byName = await runTestsTool.run({ k: 'nothing_by_this_name' }, context);
    expect(byName.reply).toMatch(/^error: no test matched -k "nothing_by_this_name": /);
    expect(context.lastTestRun?.passed).toBe(false);
  });

  it('refuses options and anything but node ids or a -k expression, and stops at the per-attempt limit', async () => {
    const context = withTests(1);
    expect((await runTestsTool.run({ tests: ['--rootdir=/'] }, context)).reply).toContain(
      "argument 'tests.0' of run_tests: must be a pytest node id",
    );
    expect((await runTestsTool.run({ k: '-x' }, context)).reply).toContain("argument 'k' of run_tests");
    expect((await runTestsTool.run({ k: 'add; rm -rf /' }, context)).reply).toContain("argument 'k' of run_tests");
    expect((await runTestsTool.run({ k: 'zero' }, context)).reply).toContain('tests passed: 1 total');
    expect((await runTestsTool.run({}, context)).reply).toBe(
      'error: the limit of 1 test runs in this attempt is spent; finish when you think the change is right.',
    );
    expect(context.telemetry.inAttemptTestRuns).toBe(1);
  });

  it('coached: refuses a run of the same tests with nothing changed since a failing one, and spends no run', async () => {
    const context = withTests();
    context.coaching = { refuseTestEdits: true, refuseEmptyFinish: true, refuseRepeatedTestRun: true };
    expect((await runTestsTool.run({}, context)).reply).toContain('tests failed: 2 total');
    expect((await runTestsTool.run({}, context)).reply).toMatch(
      /^note: run_tests not run \(no run spent\): nothing changed since the last run of these tests, which failed: 1 of 2 passed/,
    );
    // Other tests may tell something new; so may the same tests after an edit.
    expect((await runTestsTool.run({ k: 'zero' }, context)).reply).toContain('tests passed: 1 total');
    context.telemetry.mutationOperations += 1;
    expect((await runTestsTool.run({}, context)).reply).toContain('tests failed: 2 total');
    expect(context.telemetry.inAttemptTestRuns).toBe(3);
    // Not coached: the model's own call.
    const plain = withTests();
    await runTestsTool.run({}, plain);
    expect((await runTestsTool.run({}, plain)).reply).toContain('tests failed: 2 total');
  });

  it('reads what a small model meant: tests true and an empty k are the whole suite, one id a list of one', async () => {
    // The 1.5B, shown only run_tests(tests?, k?), sent {"tests": true, "k": ""} (demo fix-mean, 2026-12-06).
    const context = withTests();
    expect((await runTestsTool.run({ tests: true, k: '' }, context)).reply).toContain('tests failed: 2 total');
    expect((await runTestsTool.run({ tests: 'all' }, context)).reply).toContain('tests failed: 2 total');
    expect((await runTestsTool.run({ tests: 'tests/test_calc.py::test_zero' }, context)).reply).toContain(
      'tests passed: 1 total',
    );
    // A node id as k (boltons-multireplace-empty, 2026-12-07, with a path that is not the test's) is its test's name;
    // a bare file path as k selects no fewer tests than the whole suite.
    expect((await runTestsTool.run({ k: 'calc.py::test_zero' }, context)).reply).toContain('tests passed: 1 total');
    expect((await runTestsTool.run({ k: 'tests/test_calc.py' }, context)).reply).toContain('tests failed: 2 total');
    expect(context.telemetry.inAttemptTestRuns).toBe(5);
    // What it cannot mean is still refused, and the offered schema still asks for a list.
    expect((await runTestsTool.run({ tests: 7 }, context)).reply).toContain("argument 'tests' of run_tests");
    expect((runTestsTool.spec.parameters.properties as Record<string, { type?: string }>).tests?.type).toBe('array');
  });

  it('replies that there is no test command when the run has none', async () => {
    expect((await runTestsTool.run({}, createToolContext(t.repo))).reply).toContain('this run has no test command');
  });
});

describe('narrowCommand', () => {
  it('appends -k and node ids to a pytest command, and refuses to narrow anything else', () => {
    expect(narrowCommand(['pytest'], { k: 'add', tests: ['t.py::a'] })).toEqual({
      success: true,
      argv: ['pytest', '-k', 'add', 't.py::a'],
    });
    expect(narrowCommand(['make', 'test'], {})).toEqual({ success: true, argv: ['make', 'test'] });
    expect(narrowCommand(['make', 'test'], { k: 'add' }).success).toBe(false);
  });
});
