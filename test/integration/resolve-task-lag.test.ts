// Visibility lags behind a start (on a loaded cluster with SQL visibility most): a task looked up by its bare id a
// moment before its workflow reaches visibility is still found, not reported as unknown.
import { describe, expect, it } from 'vitest';
import { resolveTask } from '../../client/tasks/resolve-task.js';
import { makeRepo } from '../support/git-repo.js';
import { calcFiles } from '../support/calc-project.js';
import { connectTestClient, uniqueId } from './support/temporal.js';
import { startTestTask, taskSpec } from './support/tasks.js';

describe('finding a task by its id through visibility', () => {
  it('finds a task whose workflow starts a second after the lookup began', async () => {
    const { client, connection } = await connectTestClient();
    const spec = taskSpec({
      repo: await makeRepo(calcFiles),
      goal: 'Fix add',
      models: { coder: 'scripted:none.json' },
    });
    // No worker serves this queue: the workflow stays running, with the TaskId it was started with.
    const lookup = resolveTask(client, 'status', spec.id);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const handle = await startTestTask(client, uniqueId('no-worker'), spec);
    try {
      const found = await lookup;
      expect(found.handle.workflowId).toBe(handle.workflowId);
    } finally {
      await handle.terminate('test done');
      await connection.close();
    }
  });
});
