import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';
import { workflowsPath } from '../../../workers/create-workers.js';
import { taskEventSinks } from '../../../workers/event-sinks.js';
import { splitTaskAfterFirstLocalActivity } from '../../support/split-workflow-task.js';
import { resolveHostCodec } from '../../../platform/codec/host-codec.js';

const dir = path.join(projectRoot, 'test', 'fixtures', 'histories');
const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };

describe('recorded task and learning histories replay against the current workflow code', () => {
  let code: string;

  beforeAll(async () => {
    ({ code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quiet }));
  }, 120_000);

  it('keeps each lazily loaded workflow inside the one bundle file (task, project, learning, lander, eval arm; webpack eager mode, no chunk to fetch)', () => {
    expect(code.match(/import\(\) eager/g)).toHaveLength(5);
    expect(code).not.toContain('__webpack_require__.e(');
  });

  /**
   * The shapes a worker of this release can still meet: each scenario of today's task path (runs started on any path
   * before it were retired with run-nodes-before-split.ts: docs/architecture.md, "Changing workflow code"), and the
   * learning workflow of today and of the release before its rename (still served by the deprecated alias).
   */
  const taskScenarios = [
    'fails-then-passes',
    'passes-at-attempt-1',
    'path-rules-refuse-test-edit',
    'paused-then-cancelled',
    'paused-then-resumed',
    'retries-exhausted',
    'retry-window-hint',
  ];
  // The scenarios' earlier shapes (workflows/task/task-run.ts): `*.before-decisions-in-workflow.json` recorded before
  // the patch decisions-in-workflow, `*.before-repeated-timeout.json` before repeated-test-timeout-is-code. The scenario
  // path-rules-refuse-test-edit was review-rejects-test-edit before the first: its change was refused at the review.
  const earlier = (name: string) => (name === 'path-rules-refuse-test-edit' ? 'review-rejects-test-edit' : name);
  const shapes = [
    ...taskScenarios.flatMap((name) => [
      `${name}.json`,
      `${earlier(name)}.before-decisions-in-workflow.json`,
      `${earlier(name)}.before-repeated-timeout.json`,
    ]),
    'learning.before-rename.run-1.json',
    'learning.before-rename.run-2.json',
    'learning.run-1.json',
    'learning.run-2.json',
  ].sort();

  it('has a recorded history of every shape a worker of this release can meet, and none of a retired one', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
    expect(files).toEqual(shapes);
  });

  it('replays every one without non-determinism', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
    const histories = await Promise.all(
      files.map(async (file) => ({
        workflowId: path.basename(file, '.json'),
        history: historyFromJSON(JSON.parse(await readFile(path.join(dir, file), 'utf8'))),
      })),
    );
    const failures: string[] = [];
    // The worker's own event sink: replay must not write the events again.
    const eventsDir = await mkdtemp(path.join(os.tmpdir(), 'replay-events-'));
    const eventsFile = path.join(eventsDir, 'events.jsonl');
    const sinks = taskEventSinks(eventsFile);
    for await (const result of Worker.runReplayHistories({ workflowBundle: { code }, sinks }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(existsSync(eventsFile)).toBe(false);
    await rm(eventsDir, { recursive: true });
  }, 120_000);

  // Histories recorded in clear (every one before payload keys, and any started without one) replay on a worker that
  // has a key: its codec passes through what is not encrypted.
  it('replays the current ones on a worker with a payload key (clear payloads pass through the codec)', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.json') && !file.includes('.before-')).sort();
    const histories = await Promise.all(
      files.map(async (file) => ({
        workflowId: path.basename(file, '.json'),
        history: historyFromJSON(JSON.parse(await readFile(path.join(dir, file), 'utf8'))),
      })),
    );
    const { codec } = resolveHostCodec({ TASKLOOP_CODEC_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}` });
    const eventsDir = await mkdtemp(path.join(os.tmpdir(), 'replay-events-'));
    const failures: string[] = [];
    try {
      const options = {
        workflowBundle: { code },
        sinks: taskEventSinks(path.join(eventsDir, 'events.jsonl')),
        dataConverter: { payloadCodecs: [codec] },
      };
      for await (const result of Worker.runReplayHistories(options, histories))
        if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    } finally {
      await rm(eventsDir, { recursive: true, force: true });
    }
    expect(histories.length).toBeGreaterThanOrEqual(7);
    expect(failures).toEqual([]);
  }, 120_000);

  // A worker under load recorded a claim's result at the end of one workflow task and the coder in the next; on
  // replay, the `patched()` that followed the claim answered false (the SDK learns of a task's markers when the task
  // begins), and every worker failed the task with a nondeterminism error. Runs now decide their path at their start.
  async function replaySplit(file: string): Promise<Error | undefined> {
    const recorded = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Parameters<
      typeof splitTaskAfterFirstLocalActivity
    >[0];
    const split = splitTaskAfterFirstLocalActivity(recorded);
    expect(split.events.length).toBe(recorded.events.length + 3);
    const eventsDir = await mkdtemp(path.join(os.tmpdir(), 'replay-events-'));
    try {
      const sinks = taskEventSinks(path.join(eventsDir, 'events.jsonl'));
      return await Worker.runReplayHistory({ workflowBundle: { code }, sinks }, historyFromJSON(split)).then(
        () => undefined,
        (error: Error) => error,
      );
    } finally {
      await rm(eventsDir, { recursive: true, force: true });
    }
  }

  it('replays a run whose claim ended its workflow task (the path decided at the start)', async () => {
    for (const name of ['passes-at-attempt-1', 'fails-then-passes', 'paused-then-resumed'])
      expect(await replaySplit(`${name}.json`), name).toBeUndefined();
  }, 60_000);
});
