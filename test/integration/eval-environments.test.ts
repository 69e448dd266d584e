// `taskloop eval` on a suite whose instance needs a package: the arm builds the instance's environment before its tasks
// run (once for all arms: the cache's lock), tasks and verification use it, and the report counts set-up apart.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { environmentCacheDir, listEnvironments } from '../../activities/environments/index.js';
import type { EvalReport } from '../../domain/eval/report.js';
import { fixTurns } from '../support/calc-project.js';
import { runTaskloop } from '../support/cli.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { buildWheel } from '../support/python-wheel.js';
import { uniqueId, useTestTemporal } from './support/temporal.js';
import { git } from './support/tasks.js';

describe('taskloop eval with environments', () => {
  const t = useTestTemporal('eval-env');

  it('builds the environment before the arms run, resolves with the oracle and not with noop, and reports set-up apart', async () => {
    const repo = await makeRepo({
      'calc.py': 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n',
      'tests/__init__.py': '',
      'tests/test_calc.py':
        'import greetlib\nfrom calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n' +
        'def test_mul():\n    assert mul(2, 3) == greetlib.SIX\n',
      'requirements.txt': 'pytest\n',
    });
    await mkdir(path.join(repo, 'vendor'));
    const wheel = await buildWheel(path.join(repo, 'vendor'), {
      name: 'greetlib',
      version: '1.0',
      module: 'greetlib',
      source: 'SIX = 6\n',
    });
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'vendor greetlib');
    const dir = await makeTempDir();
    await writeFile(path.join(dir, 'oracle.json'), JSON.stringify({ coder: fixTurns() }));
    const suiteFile = path.join(dir, 'suite.yaml');
    await writeFile(
      suiteFile,
      [
        `name: ${uniqueId('env')}`,
        'defaults:',
        '  environment:',
        `    setup: ["uv pip install -r requirements.txt ./vendor/${wheel}"]`,
        'instances:',
        '  - id: fix-add',
        `    repo: ${repo}`,
        '    baseRef: HEAD',
        '    goal: "add must add"',
        '    failToPass: [tests/test_calc.py::test_add]',
        '    passToPass: [tests/test_calc.py::test_mul]',
        '    oracle: oracle.json',
        '',
      ].join('\n'),
    );
    const result = await runTaskloop(
      ['eval', suiteFile, '--model', 'oracle', '--model', 'noop', '--max-retries', '0', '--json'],
      {
        timeout: 300_000,
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: inject('temporalAddress'),
          TASKLOOP_HOME: dir,
          TASKLOOP_TASK_QUEUE: t.host.taskQueue,
        },
      },
    );
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(result.stdout) as EvalReport;
    expect(report.arms.map((arm) => [arm.arm.model, arm.resolved, arm.instances])).toEqual([
      ['oracle', 1, 1],
      ['noop', 0, 1],
    ]);
    // The noop arm's change fails the tests it left broken (a code defect), not for want of greetlib.
    expect(report.arms[1]?.failureClasses).toEqual({ code_defect: 1 });
    // One build for both arms and every task and verification: the cache holds one environment.
    expect(listEnvironments(environmentCacheDir(t.host.workDir))).toHaveLength(1);
    for (const arm of report.arms) expect(arm.setupMs).toBeGreaterThan(0);
    for (const run of Object.values(report.runs).flat()) {
      expect(run.setupMs).toBeGreaterThanOrEqual(0);
      expect(run.testMs).toBeGreaterThan(0);
    }
  });
});
