// `taskloop eval` end to end on the real dev server: the CLI as a person runs it, a worker in this process, a tiny
// real suite (temp git repositories, real pytest, scripted coders). The harness checks itself: the oracle resolves
// everything, a coder that changes nothing resolves nothing, a commit that breaks PASS_TO_PASS is not resolved, and
// --promote crowns a coder version only when the interval of its lead excludes 0.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { EvalReport } from '../../domain/eval/report.js';
import type { PromotionDecision } from '../../domain/eval/promotion.js';
import { projectRoot } from '../../platform/paths.js';
import { runTaskloop } from '../support/cli.js';
import { makeTempDir } from '../support/git-repo.js';
import { breakingTurns, makeTinySuite } from '../support/eval-suite.js';
import { startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';

type JsonReport = EvalReport & { promotion?: PromotionDecision; files: { json: string; svg: string } };

describe('taskloop eval', () => {
  let host: TestWorkerHost;
  let home: string;
  let registry: string;

  beforeAll(async () => {
    home = await makeTempDir();
    // The workers (in this process) and the CLI read the same registry: a copy this file may change.
    registry = path.join(home, 'registry.json');
    await copyFile(path.join(projectRoot, 'agents', 'registry.json'), registry);
    process.env.TASKLOOP_AGENTS_FILE = registry;
    host = await startTestWorkers({ taskQueue: uniqueId('eval') });
  });

  afterAll(async () => {
    await host?.stop();
  });

  const evalCli = (args: string[]) =>
    runTaskloop(['eval', ...args, '--task-queue', host.taskQueue], {
      timeout: 240_000,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TASKLOOP_HOME: home,
        TASKLOOP_AGENTS_FILE: registry,
      },
    });

  it('resolves every instance with the oracle and none with a coder that changes nothing, and resumes instead of rerunning', async () => {
    const suite = await makeTinySuite(uniqueId('tiny'));
    const args = [suite.suiteFile, '--model', 'oracle', '--model', 'noop', '--max-retries', '0', '--json'];
    const result = await evalCli(args);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.arms.map((arm) => [arm.arm.model, arm.resolved, arm.instances])).toEqual([
      ['oracle', 2, 2],
      ['noop', 0, 2],
    ]);
    expect(report.arms[0]).toMatchObject({ resolvedRate: 1, pass1Rate: 1, resolvedByAttempt: [1, 1, 1] });
    // Nothing changed: the task's own tests fail as they did at the base, a code defect.
    expect(report.arms[1]?.failureClasses).toEqual({ code_defect: 2 });
    expect(report.comparisons).toEqual([
      expect.objectContaining({
        a: 'a1',
        b: 'a2',
        shared: 2,
        difference: 1,
        interval: { low: 1, high: 1, level: 0.95 },
        disagreements: [
          { instanceId: 'fix-add', resolvedBy: 'a1' },
          { instanceId: 'fix-shout', resolvedBy: 'a1' },
        ],
      }),
    ]);
    expect(await readFile(report.files.svg, 'utf8')).toContain('a1 by attempt 1: 100.0%');
    expect(JSON.parse(await readFile(report.files.json, 'utf8'))).toMatchObject({ evalId: report.evalId });

    // Run again: both arms are found finished; nothing runs a second time, the figures are the same.
    const again = await evalCli(args);
    expect(again.exitCode, again.all).toBe(0);
    expect(again.stderr).toContain(`resumed eval-${report.evalId}-a1`);
    expect((JSON.parse(again.stdout) as JsonReport).arms).toEqual(report.arms);

    const status = await runTaskloop(['eval', 'status', report.evalId], {
      env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') },
    });
    expect(status.stdout).toMatch(new RegExp(`eval-${report.evalId}-a1 +COMPLETED +2/2 +2 +oracle`));
    expect(status.stdout).toMatch(new RegExp(`eval-${report.evalId}-a2 +COMPLETED +2/2 +0 +noop`));
  });

  it('does not count as resolved a commit that passes the task’s own tests but breaks a PASS_TO_PASS test', async () => {
    const suite = await makeTinySuite(uniqueId('p2p'));
    const script = path.join(suite.dir, 'breaker.json');
    await writeFile(script, JSON.stringify({ coder: breakingTurns() }));
    const text = await readFile(suite.suiteFile, 'utf8');
    await writeFile(suite.suiteFile, text.replace(/ {2}- id: fix-add[\s\S]*?(?= {2}- id: fix-shout)/, ''));
    const result = await evalCli([suite.suiteFile, '--model', `scripted:${script}`, '--max-retries', '0', '--json']);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.arms[0]).toMatchObject({ resolved: 0, instances: 1, failureClasses: { verification_failed: 1 } });
    expect(report.runs.a1?.[0]).toMatchObject({
      instanceId: 'fix-shout',
      taskStatus: 'COMPLETED',
      verification: {
        resolved: false,
        checked: 'commit',
        failToPass: { 'tests/test_text.py::test_shout': 'passed' },
        passToPass: { 'tests/test_calc.py::test_mul': 'failed' },
      },
    });
  });
});
