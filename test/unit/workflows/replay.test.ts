import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';
import { workflowsPath } from '../../../workers/create-workers.js';

const dir = path.join(projectRoot, 'test', 'fixtures', 'histories');
const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };

describe('recorded task histories replay against the current workflow code', () => {
  let code: string;

  beforeAll(async () => {
    ({ code } = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quiet }));
  }, 120_000);

  it('keeps each lazily loaded workflow inside the one bundle file (webpack eager mode, no chunk to fetch)', () => {
    expect(code.match(/import\(\) eager/g)).toHaveLength(3);
    expect(code).not.toContain('__webpack_require__.e(');
  });

  it('has recorded histories to replay, of the current code and of the code before the commit joined the tests', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.json'));
    // `*.before-commit-in-test.json`: recorded when the rule-only commit was an activity of its own; tasks started
    // then must still replay (their test results carry no commit, so the workflow schedules the commit activity).
    expect(files.filter((file) => file.endsWith('.before-commit-in-test.json')).length).toBeGreaterThanOrEqual(7);
    expect(files.filter((file) => !file.includes('.before-')).length).toBeGreaterThanOrEqual(7);
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
    for await (const result of Worker.runReplayHistories({ workflowBundle: { code } }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
