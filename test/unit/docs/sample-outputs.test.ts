// The docs' sample outputs, produced again by the commands they show (or, for `taskloop show`, by its formatter on a
// run recorded by test/integration/show.test.ts) and compared by shape: the same lines in the same order, `…` where
// a sample leaves out what differs from run to run (see test/support/sample-shape.ts). Each sample checked here
// has the marker `<!-- sample NAME: checked by test/unit/docs/sample-outputs.test.ts -->` right above its block.
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAttemptArtifacts } from '../../../client/show/load-trajectory.js';
import { formatEvalReport } from '../../../client/eval/report-output.js';
import { formatTrajectory } from '../../../client/show/format-text.js';
import type { ArmResult, InstanceRun } from '../../../domain/eval/records.js';
import { buildEvalReport } from '../../../domain/eval/report.js';
import type { TaskOutcome } from '../../../domain/task-state.js';
import { buildTrajectory, type AttemptArtifacts } from '../../../domain/trajectory/trajectory.js';
import { DEFAULT_ADDRESS } from '../../../platform/connection.js';
import { projectRoot } from '../../../platform/paths.js';
import { runTaskloop } from '../../support/cli.js';
import { documentedBlock } from '../../support/documented-commands.js';
import { sampleMismatch } from '../../support/sample-shape.js';

const thisFile = 'test/unit/docs/sample-outputs.test.ts';
const sample = (file: string, name: string) => documentedBlock(file, `sample ${name}: checked by ${thisFile}`);

/** The checks below, by sample name; the test at the end holds the docs' markers to this list. */
const checked = [
  'ui-status-paused',
  'clear-payloads-warning',
  'show-failed-task',
  'show-artifact-elsewhere',
  'eval-arms-table',
];

/** An environment with no Temporal or payload-key settings of the machine running the tests. */
function plainEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env))
    if (/^(TEMPORAL_|TASKLOOP_CODEC)/.test(name) || name === 'FORCE_COLOR') delete env[name];
  return env;
}

describe("the docs' sample outputs", () => {
  it('operating.md: `taskloop ui --status paused` prints the address and the columns to add', async () => {
    const [command = '', ...output] = (await sample('docs/operating.md', 'ui-status-paused')).split('\n');
    const args = command.replace(/^\$ taskloop /, '').split(' ');
    // The page shows the default server's address (the test run's own default is a port of its own); ui contacts nothing.
    const env = { ...plainEnv(), TEMPORAL_ADDRESS: DEFAULT_ADDRESS };
    const result = await runTaskloop(args, { env, cwd: os.tmpdir() });
    expect(result.exitCode, result.all).toBe(0);
    expect(sampleMismatch(result.stdout, output.join('\n'))).toBeUndefined();
  });

  it('security.md: a command connecting to a remote server without a payload key warns once, on stderr', async () => {
    const want = await sample('docs/security.md', 'clear-payloads-warning');
    const address = /on the Temporal server at (\S+);/.exec(want)?.[1];
    expect(address).toBeDefined();
    // The warning comes before the connection: what the connection does after (the host does not resolve) does not
    // matter, and a command still trying after 20 s is stopped with what it printed kept.
    const result = await runTaskloop(['list', '--address', address!], {
      env: plainEnv(),
      cwd: os.tmpdir(),
      timeout: 20_000,
    });
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('taskloop: warning:'));
    expect(sampleMismatch(warnings.join('\n'), want)).toBeUndefined();
  });

  it('trajectories.md: `taskloop show` of the failed task recorded by show.test.ts', async () => {
    const dir = path.join(projectRoot, 'test', 'fixtures', 'trajectories', 'failed');
    const outcome = JSON.parse(await readFile(path.join(dir, 'outcome.json'), 'utf8')) as TaskOutcome;
    const artifacts = new Map<string, AttemptArtifacts>([
      [
        '1',
        {
          transcript: { text: await readFile(path.join(dir, 'a1-transcript.json'), 'utf8') },
          diff: { text: await readFile(path.join(dir, 'a1-diff.patch'), 'utf8') },
        },
      ],
    ]);
    // The goal is the task spec's (show.test.ts started it with this one); the outcome does not repeat it.
    const text = formatTrajectory(buildTrajectory({ ...outcome, goal: 'Fix add in calc.py' }, artifacts));
    expect(sampleMismatch(text, await sample('docs/trajectories.md', 'show-failed-task'))).toBeUndefined();
  });

  it('trajectories.md: an attempt whose transcript is on another host names the host and the path', async () => {
    const want = await sample('docs/trajectories.md', 'show-artifact-elsewhere');
    const transcript = '/srv/taskloop/work/artifacts/task-p-t1/a1/run-1/transcript.json';
    const outcome = outcomeOnHost('gpu-box-2', transcript);
    const text = formatTrajectory(buildTrajectory(outcome, await readAttemptArtifacts(outcome.attempts, {})));
    const turns = text.split('\n').filter((line) => line.startsWith('turns:'));
    expect(sampleMismatch(turns.join('\n'), want)).toBeUndefined();
  });

  it("evaluation.md: `taskloop eval`'s table of arms has the sample's title, columns and rows", async () => {
    // The eval command prints formatEvalReport of the arms' results; two arms as the sample's oracle and no-op.
    const report = buildEvalReport([evalArm('a1', 'oracle', true), evalArm('a2', 'noop', false)]);
    const cells = (line: string) => line.trim().split(/ {2,}/);
    const [title = '', header = '', ...rows] = formatEvalReport(report).split('\n\n')[0]!.split('\n');
    const [wantTitle = '', wantHeader = '', ...wantRows] = (
      await sample('docs/evaluation.md', 'eval-arms-table')
    ).split('\n');
    for (const line of [title, wantTitle]) expect(line).toMatch(/^eval \S+ \(suite \S+\)$/);
    expect(cells(header)).toEqual(cells(wantHeader));
    expect(rows.map((row) => cells(row).length)).toEqual(wantRows.map((row) => cells(row).length));
    for (const row of [...rows, ...wantRows]) expect(row).toMatch(/^ {2}a\d+ /);
  });

  it('every sample marked as checked by this file has its check here, and every check its sample', async () => {
    const files = ['README.md', ...(await readdir(path.join(projectRoot, 'docs')))]
      .filter((file) => file.endsWith('.md'))
      .map((file) => (file === 'README.md' ? file : path.join('docs', file)));
    const marked: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(projectRoot, file), 'utf8');
      for (const match of text.matchAll(/<!-- sample ([a-z0-9-]+): checked by (\S+) -->/g))
        if (match[2] === thisFile) marked.push(match[1]!);
    }
    expect(marked.sort()).toEqual([...checked].sort());
  });
});

/** An arm of two instances that resolves both or neither, as the oracle and the no-op arms do. */
function evalArm(id: string, model: string, resolves: boolean): ArmResult {
  const run = (instanceId: string): InstanceRun => ({
    instanceId,
    workflowId: `task-eval-${instanceId}`,
    taskStatus: resolves ? 'COMPLETED' : 'FAILED',
    attempts: 1,
    ...(resolves ? { commitAttempt: 1 } : {}),
    verification: {
      resolved: resolves,
      sha: 'abc',
      checked: 'commit',
      failToPass: { total: 1, passed: resolves ? 1 : 0, notPassing: {} },
      passToPass: { total: 0, passed: 0, notPassing: {} },
    },
    modelCalls: 2,
    inputTokens: 100,
    outputTokens: 10,
    costUsd: 0,
    wallTimeMs: 2000,
    malformedReplies: 0,
    ...(resolves ? {} : { failureClass: 'code_defect' }),
  });
  return {
    evalId: 'starter-1',
    suite: 'starter',
    arm: { id, label: `${model} champion learning=on`, model, learning: true },
    runs: [run('i1'), run('i2')],
    total: 2,
    finished: true,
  };
}

/** A failed task of one attempt whose coder's transcript was written on `hostId`, at `transcriptPath` there. */
function outcomeOnHost(hostId: string, transcriptPath: string): TaskOutcome {
  const telemetry = {
    patchAttempts: 0,
    patchSuccesses: 0,
    patchMismatches: 0,
    writeFileOperations: 0,
    writeFileFallbacks: 0,
    mutationOperations: 0,
    modelRequests: 1,
    inputTokens: 10,
    outputTokens: 5,
  };
  return {
    workflowId: 'task-p-t1',
    taskId: 't1',
    project: 'p',
    status: 'FAILED',
    attempts: [
      {
        attempt: 1,
        status: 'FAILED',
        startedAt: '2026-12-06T12:00:00.000Z',
        endedAt: '2026-12-06T12:00:02.500Z',
        envRetries: 0,
        coder: {
          status: 'model_error',
          summary: '',
          changedFiles: [],
          turnsConsumed: 1,
          telemetry,
          transcript: { hostId, path: transcriptPath, bytes: 1 },
        },
      },
    ],
    telemetry: {} as TaskOutcome['telemetry'],
    turnsConsumed: 1,
  };
}
