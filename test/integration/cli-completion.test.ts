// Completion of task ids asks the server: a task the server knows is offered after `taskloop status`, by its task id
// and its workflow id (test/unit/client/completion.test.ts has the server down and silent).
import { describe, expect, inject, it } from 'vitest';
import { TaskIdKey, ProjectKey } from '../../workflows/search-attributes.js';
import { runTaskloop } from '../support/cli.js';
import { bashCompletes } from '../support/completion.js';
import { eventually, uniqueId, useTestClient } from './support/temporal.js';

describe('completion of task ids', () => {
  const t = useTestClient();

  it('offers the task ids and workflow ids the server has', async () => {
    const taskId = uniqueId('complete-me');
    const project = uniqueId('completion');
    // A task workflow no worker runs: only its search attributes matter here.
    const handle = await t.client.workflow.start('taskWorkflow', {
      workflowId: `task-${project}-${taskId}`,
      taskQueue: uniqueId('nobody-polls'),
      args: [],
      typedSearchAttributes: [
        { key: TaskIdKey, value: taskId },
        { key: ProjectKey, value: project },
      ],
    });
    try {
      const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress') };
      const words = await eventually('the task in visibility', async () => {
        const listed = await runTaskloop(['completion', 'words', 'tasks'], { env });
        const lines = listed.stdout.split('\n');
        return lines.includes(taskId) ? lines : undefined;
      });
      expect(words).toContain(handle.workflowId);
      const { stdout: script } = await runTaskloop(['completion', 'bash']);
      expect(await bashCompletes(script, ['taskloop', 'status', taskId.slice(0, -2)], env)).toEqual([taskId]);
      expect(await bashCompletes(script, ['taskloop', 'retry', `task-${project}`], env)).toEqual([handle.workflowId]);
      // --address typed before the command is the server asked.
      const elsewhere = { ...process.env };
      expect(
        await bashCompletes(
          script,
          ['taskloop', '--address', inject('temporalAddress'), 'show', taskId.slice(0, -2)],
          elsewhere,
        ),
      ).toEqual([taskId]);
    } finally {
      await handle.terminate('test over');
    }
  });
});
