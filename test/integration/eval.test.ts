// `taskloop eval` end to end on the real dev server: the CLI as a person runs it, a worker in this process, a tiny
// real suite (temp git repositories, real pytest, scripted coders). The harness checks itself: the oracle resolves
// everything, a coder that changes nothing resolves nothing, a commit that breaks PASS_TO_PASS is not resolved, and
// --promote crowns a coder version only when the interval of its lead excludes 0.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { EvalReport } from '../../domain/eval/report.js';
import type { PromotionDecision } from '../../domain/eval/promotion.js';
import { projectRoot } from '../../platform/paths.js';
import { runTaskloop } from '../support/cli.js';
import { makeTempDir } from '../support/git-repo.js';
import { breakingTurns, makeTinySuite } from '../support/eval-suite.js';
import { connectTestClient, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';

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

  it('resolves every instance with the oracle and none with a coder that changes nothing, learns only where learning is on, and resumes instead of rerunning', async () => {
    const suite = await makeTinySuite(uniqueId('tiny'));
    const args = [
      suite.suiteFile,
      '--model',
      'oracle',
      '--model',
      'noop',
      '--learning',
      'on,off',
      '--max-retries',
      '0',
    ];
    const result = await evalCli([...args, '--json']);
    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(
      report.arms.map((arm) => [arm.arm.id, arm.arm.model, arm.arm.learning, arm.resolved, arm.instances]),
    ).toEqual([
      ['a1', 'oracle', true, 2, 2],
      ['a2', 'oracle', false, 2, 2],
      ['a3', 'noop', true, 0, 2],
      ['a4', 'noop', false, 0, 2],
    ]);
    expect(report.arms[0]).toMatchObject({ resolvedRate: 1, pass1Rate: 1, resolvedByAttempt: [1, 1, 1] });
    // Nothing changed: the task's own tests fail as they did at the base, a code defect.
    expect(report.arms[2]?.failureClasses).toEqual({ code_defect: 2 });
    const pair = (a: string, b: string) => report.comparisons.find((c) => c.a === a && c.b === b);
    expect(pair('a1', 'a3')).toMatchObject({
      shared: 2,
      difference: 1,
      interval: { low: 1, high: 1, level: 0.95 },
      disagreements: [
        { instanceId: 'fix-add', resolvedBy: 'a1' },
        { instanceId: 'fix-shout', resolvedBy: 'a1' },
      ],
    });
    expect(pair('a1', 'a2')).toMatchObject({ difference: 0, interval: { low: 0, high: 0 }, disagreements: [] });
    expect(await readFile(report.files.svg, 'utf8')).toContain('a1 by attempt 1: 100.0%');
    expect(JSON.parse(await readFile(report.files.json, 'utf8'))).toMatchObject({ evalId: report.evalId });
    // The failures of the learning arm reached its project's learning workflow; those of the arm with learning off did not.
    const { client, connection } = await connectTestClient();
    try {
      const learning = (arm: string) => client.workflow.getHandle(`learning-${report.evalId}-${arm}-coder`).describe();
      await expect(learning('a3')).resolves.toBeDefined();
      await expect(learning('a4')).rejects.toThrow(WorkflowNotFoundError);
    } finally {
      await connection.close();
    }

    // Run again: every arm is found finished; nothing runs a second time, the figures are the same.
    const again = await evalCli([...args, '--json']);
    expect(again.exitCode, again.all).toBe(0);
    expect(again.stderr).toContain(`resumed eval-${report.evalId}-a1`);
    expect((JSON.parse(again.stdout) as JsonReport).arms).toEqual(report.arms);

    const status = await runTaskloop(['eval', 'status', report.evalId], {
      env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') },
    });
    expect(status.stdout).toMatch(new RegExp(`eval-${report.evalId}-a1 +COMPLETED +2/2 +2 +oracle`));
    expect(status.stdout).toMatch(
      new RegExp(`eval-${report.evalId}-a4 +COMPLETED +2/2 +0 +noop champion learning=off`),
    );
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
        failToPass: { total: 1, passed: 1, notPassing: {} },
        passToPass: { total: 1, passed: 0, notPassing: { 'tests/test_calc.py::test_mul': 'failed' } },
      },
    });
  });

  it('promotes a coder version only when the interval of its lead over the champion excludes 0, else leaves the registry as it was', async () => {
    const suite = await makeTinySuite(uniqueId('promo'));
    // A champion that cannot write (coder-investigator) resolves nothing; coder-1 with the oracle resolves all.
    const original = await readFile(registry, 'utf8');
    await writeFile(registry, original.replace('"champion": "coder-1"', '"champion": "coder-investigator"'));
    const common = [suite.suiteFile, '--model', 'oracle', '--max-retries', '0', '--promote', '--json'];
    const first = await evalCli([...common, '--agents', 'coder-investigator,coder-1']);
    expect(first.exitCode, first.all).toBe(0);
    const promoted = (JSON.parse(first.stdout) as JsonReport).promotion;
    expect(promoted).toMatchObject({
      promote: true,
      champion: 'coder-investigator',
      candidate: 'coder-1',
      shared: 2,
      difference: 1,
      interval: { low: 1, high: 1 },
    });
    const after = await readFile(registry, 'utf8');
    const coder = (JSON.parse(after) as { coder: { champion: string; history: Record<string, unknown>[] } }).coder;
    expect(coder.champion).toBe('coder-1');
    expect(coder.history).toEqual([
      expect.objectContaining({ decision: 'promoted', from: 'coder-investigator', to: 'coder-1', intervalLow: 1 }),
    ]);

    // Two versions that both resolve everything: a lead of 0, an interval of [0, 0]; the file stays byte for byte.
    const second = await evalCli([...common, '--agents', 'coder-1,coder-1-no-tests']);
    expect(second.exitCode, second.all).toBe(0);
    const kept = (JSON.parse(second.stdout) as JsonReport).promotion;
    expect(kept).toMatchObject({ promote: false, champion: 'coder-1', candidate: 'coder-1-no-tests', difference: 0 });
    expect(kept?.reason).toMatch(/does not exclude 0: kept coder-1$/);
    expect(await readFile(registry, 'utf8')).toBe(after);
  });

  it('refuses a bad suite with exit 2, naming field, value and fix, before it connects to anything', async () => {
    const suite = await makeTinySuite(uniqueId('bad'));
    // A fix commit that changes code but no test.
    await writeFile(path.join(suite.repo, 'text.py'), 'def shout(s):\n    return s.upper()\n');
    const git = simpleGit(suite.repo);
    await git.raw(['commit', '-qam', 'fix shout, no test']);
    const noTestFix = (await git.revparse(['HEAD'])).trim();
    const text = await readFile(suite.suiteFile, 'utf8');
    const variants = {
      unknown: text.replace('    oracle: shout-oracle.json', '    oracle: shout-oracle.json\n    failToPas: [x.py]'),
      missing: text.replace('    failToPass: [tests/test_text.py::test_shout]\n', ''),
      noTest: text.replace(`fixCommit: ${suite.fixSha}`, `fixCommit: ${noTestFix}`),
    };
    const run = async (content: string, name: string) => {
      const file = path.join(suite.dir, `${name}.yaml`);
      await writeFile(file, content);
      // An address nothing listens on: a CLI that tried to connect would fail with exit 1, not 2.
      return runTaskloop(['eval', file, '--model', 'oracle'], {
        env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1', TASKLOOP_HOME: home },
      });
    };
    const [unknown, missing, noTest] = await Promise.all(Object.entries(variants).map(([k, v]) => run(v, k)));
    expect(unknown.exitCode, unknown.all).toBe(2);
    expect(unknown.stderr).toMatch(
      /unknown\.yaml: instances\[1\]\.failToPas: unknown field, got \["x\.py"\] \(remove it/,
    );
    expect(missing.exitCode, missing.all).toBe(2);
    expect(missing.stderr).toMatch(
      /instances\[1\]\.failToPass: got nothing \(fix: list at least one test the fix makes pass/,
    );
    expect(noTest.exitCode, noTest.all).toBe(2);
    expect(noTest.stderr).toContain(
      `instances[0].fixCommit: commit ${noTestFix} adds or changes no test file (it changes text.py); fix: pick the upstream commit`,
    );
  });
});
