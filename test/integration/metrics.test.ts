// `taskloop worker --metrics` serves the SDK's and taskloop's metrics; the numbers match the tasks' own records.
import type { ResultPromise } from 'execa';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskOutcome } from '../../domain/task-state.js';
import { projectRoot } from '../../platform/paths.js';
import { findFreePort } from '../../platform/server/ports.js';
import { pauseSignal, cancelSignal } from '../../workflows/messages.js';
import { startWorkerProcess } from '../support/cli.js';
import { calcFiles, fixTurns, makeCalcProject, turn, wrongTurns, type ScriptTurn } from '../support/calc-project.js';
import { startTestTask, taskSpec, waitForState, taskOutcome } from './support/tasks.js';
import { uniqueId, useTestClient, workerProcessEnv } from './support/temporal.js';
import { documentedBlock } from '../support/documented-commands.js';

const thisFile = 'test/integration/metrics.test.ts';

/** Tries to write outside the worktree only while add is wrong, so the fixed attempt passes. */
const escapeTest =
  "from calc import add\n\n\ndef test_add_stays_inside():\n    if add(2, 3) != 5:\n        open('/usr/taskloop-probe', 'w').write('x')\n";

type Sample = { name: string; labels: Record<string, string>; value: number };

function parsePrometheus(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
    );
    return [{ name: match[1] as string, labels, value: Number(match[3]) }];
  });
}

/** The sum of a metric over the samples whose labels include `where`. */
const total = (samples: Sample[], name: string, where: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(where).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);

/**
 * The metric names a PromQL expression reads: identifiers left once strings, label matchers, ranges, grouping
 * clauses and Grafana's variables are gone, that do not call a function and are no keyword or number.
 */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ')
    .replace(/(?<![\w:])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, ' ');
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);
  return [...bare.matchAll(/([a-zA-Z_:][\w:]*)(\s*\()?/g)]
    .filter(([, name, call]) => !call && !keywords.has((name as string).toLowerCase()))
    .map(([, name]) => name as string);
}

/** Every metric name the example Grafana dashboard's panels query. */
async function dashboardMetricNames(): Promise<string[]> {
  const file = path.join(projectRoot, 'examples', 'grafana', 'taskloop-dashboard.json');
  const exprs: string[] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node))
        if (key === 'expr' && typeof value === 'string') exprs.push(value);
        else collect(value);
  };
  collect(JSON.parse(await readFile(file, 'utf8')));
  return [...new Set(exprs.flatMap(metricNamesIn))].sort();
}

describe('reading metric names from PromQL', () => {
  it('keeps metric names and drops functions, labels, ranges, groupings and variables', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (le, node) (rate(a_seconds_bucket{x!="y z"}[5m]))) / on(job) b_total + c[$__range] / 1e6',
      ),
    ).toEqual(['a_seconds_bucket', 'b_total', 'c']);
  });
});

describe('taskloop worker --metrics', () => {
  const t = useTestClient();
  let worker: ResultPromise | undefined;
  afterAll(async () => {
    worker?.kill('SIGTERM');
    await worker?.catch(() => undefined);
  });

  it('serves Prometheus metrics during and after real tasks that agree with their outcomes', async () => {
    const queue = uniqueId('metrics');
    const address = `127.0.0.1:${await findFreePort()}`;
    const logFormat = { TASKLOOP_LOG_LEVEL: 'INFO', TASKLOOP_LOG_FORMAT: 'text' };
    ({ child: worker } = await startWorkerProcess(
      await workerProcessEnv(queue, { TASKLOOP_METRICS: address, ...logFormat }),
    ));
    let workerLog = '';
    worker.all?.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
    const scrape = async () => parsePrometheus(await (await fetch(`http://${address}/metrics`)).text());
    // Before any task: the denial counter is already there, at 0 (an alert can tell "none" from "not exported").
    const atStart = await scrape();
    expect(
      atStart
        .filter((s) => s.name === 'taskloop_sandbox_denials_total')
        .map((s) => s.labels.activityType)
        .sort(),
    ).toEqual(['reviewChanges', 'runCoder', 'runTests']);
    expect(total(atStart, 'taskloop_sandbox_denials_total')).toBe(0);

    // A task that fails its first attempt and passes its second. While add is wrong, one test tries to write
    // outside the worktree (the sandbox refuses it); the second attempt's coder runs the tests once itself.
    const [fixEdit, finish] = fixTurns() as [ScriptTurn, ScriptTurn];
    const project = await makeCalcProject(
      { coder: [...wrongTurns(), fixEdit, turn('run_tests', {}), finish] },
      { ...calcFiles, 'tests/test_escape.py': escapeTest },
    );
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      maxRetries: 1,
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const outcome = (await taskOutcome(await startTestTask(t.client, queue, spec))) as TaskOutcome;
    expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'PASSED']);
    const denied = outcome.attempts.filter((attempt) => attempt.test?.cause?.kind === 'SandboxDenied').length;
    const ownTestRuns = outcome.attempts.reduce((sum, a) => sum + (a.coder?.telemetry.inAttemptTestRuns ?? 0), 0);
    expect([denied, ownTestRuns]).toEqual([1, 1]);

    // During: a second task held paused is running, so it is not counted as ended.
    const other = await makeCalcProject({ coder: fixTurns() });
    const held = await startTestTask(
      t.client,
      queue,
      taskSpec({ repo: other.repo, goal: 'Fix add in calc.py', models: { coder: `scripted:${other.scriptFile}` } }),
    );
    await held.signal(pauseSignal);
    await waitForState(held, 'the second task paused', (state) => state.status === 'PAUSED');
    const during = await scrape();
    expect(total(during, 'taskloop_tasks_total')).toBe(1);
    expect(total(during, 'taskloop_tasks_total', { status: 'COMPLETED' })).toBe(1);
    expect(total(during, 'taskloop_attempts_total', { status: 'PASSED', class: 'none' })).toBe(1);
    const failedClass = outcome.attempts[0]?.failure?.failureClass ?? 'missing';
    expect(total(during, 'taskloop_attempts_total', { status: 'REWORK_REQUIRED', class: failedClass })).toBe(1);
    const coder = outcome.attempts.map((attempt) => attempt.coder?.telemetry);
    expect(total(during, 'taskloop_model_requests_total', { provider: 'scripted', role: 'coder' })).toBe(
      coder.reduce((sum, x) => sum + (x?.modelRequests ?? 0), 0),
    );
    expect(total(during, 'taskloop_model_tokens_total', { role: 'coder', direction: 'input' })).toBe(
      coder.reduce((sum, x) => sum + (x?.inputTokens ?? 0), 0),
    );
    expect(total(during, 'taskloop_model_tokens_total', { role: 'coder', direction: 'output' })).toBe(
      coder.reduce((sum, x) => sum + (x?.outputTokens ?? 0), 0),
    );
    // Two attempts each ran claim, code and test: one observation per node and attempt.
    expect(total(during, 'taskloop_node_duration_seconds_count', { node: 'test' })).toBe(2);
    expect(total(during, 'taskloop_node_duration_seconds_count', { node: 'commit' })).toBe(1);
    // Counted under the activity that ran the tests: the test node's (the coder's own test run was not denied).
    expect(total(during, 'taskloop_sandbox_denials_total', { activityType: 'runTests' })).toBe(denied);
    expect(total(during, 'taskloop_sandbox_denials_total', { activityType: 'runCoder' })).toBe(0);
    expect(total(during, 'taskloop_in_attempt_test_runs_total', { activityType: 'runCoder' })).toBe(ownTestRuns);
    // The SDK's own metrics come from the same endpoint.
    expect(total(during, 'temporal_workflow_completed_total')).toBeGreaterThanOrEqual(1);

    // After: the held task is cancelled, and counted so.
    await held.signal(cancelSignal, { reason: 'metrics test' });
    await held.result().catch(() => undefined);
    const after = await scrape();
    expect(total(after, 'taskloop_tasks_total', { status: 'CANCELLED' })).toBe(1);
    expect(total(after, 'taskloop_tasks_total')).toBe(2);

    // Every metric the Grafana dashboard queries is one this worker exports: a panel on a name nobody exports
    // stays empty without a word.
    const names = await dashboardMetricNames();
    expect(names.length).toBeGreaterThan(5);
    const exported = new Set(after.map((sample) => sample.name));
    expect(names.filter((name) => !exported.has(name))).toEqual([]);

    // operating.md's sample scrape has the shape of this one: each line's metric with the same label names.
    const shapeOf = (sample: Sample) => `${sample.name}{${Object.keys(sample.labels).sort().join(',')}}`;
    const documented = await documentedBlock('docs/operating.md', `sample metrics-scrape: checked by ${thisFile}`);
    const scraped = new Set(after.map(shapeOf));
    expect(
      parsePrometheus(documented)
        .map(shapeOf)
        .filter((shape) => !scraped.has(shape)),
    ).toEqual([]);

    // And its sample log line, a phase change, has the shape of this worker's: time, level, the task and the two
    // phases, then the same fields in the same order (each value one word: here another task, time and attempt).
    const logSample = await documentedBlock('docs/operating.md', `sample phase-log-line: checked by ${thisFile}`);
    const taskId = /task (\S+): /.exec(logSample)?.[1] ?? '';
    const word = '\uE000';
    const logShape = logSample
      .replace(/^\S+Z /, `${word} `)
      .replaceAll(`task-default-${taskId}`, word)
      .replaceAll(taskId, word)
      .replace(/attempt=\d+/, `attempt=${word}`);
    const logPattern = new RegExp(`^${logShape.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(word, '\\S+')}$`);
    const phaseLines = workerLog.split('\n').filter((line) => line.includes(': judge -> commit'));
    expect(phaseLines.length, workerLog).toBeGreaterThan(0);
    expect(phaseLines[0]).toMatch(logPattern);
  });
});
