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

const dir = path.join(projectRoot, 'test', 'fixtures', 'histories');
const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };

describe('recorded task and learning histories replay against the current workflow code', () => {
  let code: string;

  beforeAll(async () => {
    ({ code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quiet }));
  }, 120_000);

  it('keeps each lazily loaded workflow inside the one bundle file (task, project, learning, eval arm; webpack eager mode, no chunk to fetch)', () => {
    expect(code.match(/import\(\) eager/g)).toHaveLength(4);
    expect(code).not.toContain('__webpack_require__.e(');
  });

  it('has recorded histories to replay, of the current code and of the code before each change to the workflow', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.json'));
    // `*.before-commit-in-test.json`: recorded when the rule-only commit was an activity of its own; tasks started
    // then must still replay (their test results carry no commit, so the workflow schedules the commit activity).
    expect(files.filter((file) => file.endsWith('.before-commit-in-test.json')).length).toBeGreaterThanOrEqual(7);
    // `*.before-events-sink.json`: recorded when events reached the sink by a local activity (a marker per flush).
    expect(files.filter((file) => file.endsWith('.before-events-sink.json')).length).toBeGreaterThanOrEqual(7);
    // `*.before-claim-local.json`: recorded when the claim was an activity on the shared queue (no patch marker).
    expect(files.filter((file) => file.endsWith('.before-claim-local.json')).length).toBeGreaterThanOrEqual(7);
    // `*.before-tests-with-coder.json`: recorded when the tests always ran in an activity of their own (a coder result
    // without `tested`, so the workflow schedules the test activity).
    expect(files.filter((file) => file.endsWith('.before-tests-with-coder.json')).length).toBeGreaterThanOrEqual(7);
    // `*.before-node-activities.json`: recorded when the coder activity ran the test node and the test activity the
    // review's rules, the rule judge and the commit (no marker one-activity-per-node: run-nodes-before-split.ts).
    expect(files.filter((file) => file.endsWith('.before-node-activities.json')).length).toBeGreaterThanOrEqual(7);
    // `*.before-path-at-start.json`: recorded when a run asked the claim, node and events patches where each applied
    // (no marker task-path-decided-at-start: workflows/task/task-run.ts).
    expect(files.filter((file) => file.endsWith('.before-path-at-start.json')).length).toBeGreaterThanOrEqual(7);
    expect(files.filter((file) => !file.includes('.before-')).length).toBeGreaterThanOrEqual(7);
    // `learning.before-rename.run-*.json`: a learning workflow of the release before the rename (type
    // reflectionWorkflow, its state carried through continue-as-new under `memory`), served now by the deprecated alias.
    expect(files.filter((file) => file.startsWith('learning.before-rename.run-')).length).toBe(2);
    expect(files.filter((file) => /^learning\.run-\d\.json$/.test(file)).length).toBe(2);
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

  it('(the same shape failed the runs recorded before that, as the crash test saw)', async () => {
    const error = await replaySplit('passes-at-attempt-1.before-path-at-start.json');
    expect(error?.message).toMatch(/Nondeterminism.*patch marker encountered for change one-activity-per-node/s);
  }, 60_000);
});
