// `taskloop retry ID [--hint TEXT]`: another attempt for a task that waits for a hint or has failed, or another run
// of the failed tasks of a running project.
import { parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { resolveTarget } from '../projects/resolve-target.js';
import { retryProjectTasks } from '../projects/retry-project.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { retryTask, type RetryResult } from '../tasks/retry-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';
import { refuseSecretsInHint } from '../tasks/refuse-secrets.js';

const help = `Usage: taskloop retry ID [--hint TEXT] [--task TASK]

Gives a task another attempt, with your hint in the coder's context:
- a running task that waits for a hint, or failed and is inside its retry window (run --retry-window), gets the
  \`retry\` update; the task refuses it (exit 1, with its reason) when there is nothing to retry;
- a closed task that FAILED or was CANCELLED starts again under the same workflow id, carrying its earlier
  attempts (their test evidence and findings) so attempt numbering and evidence continue;
- a COMPLETED task is not retried (exit 1).
For a running project (e.g. paused, or with tasks still running), runs its FAILED and CANCELLED tasks again (or
only --task TASK, which may also be SKIPPED), with their skipped dependants; a closed project takes no more
work (retry its tasks by their workflow ids instead).
ID is a workflow id (task-<project>-<id> or project-<name>), a task id, or a project name.

  --hint TEXT   guidance for the coder, shown in the next attempt's context
  --task TASK   with a project: the one task to run again

Exit codes: 0 retry accepted or started, 1 refused or nothing to retry, 2 unknown or ambiguous ID.`;

export const retryCommand: Command = {
  summary: 'retry a failed task (or the failed tasks of a project), optionally with a hint',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags(
      'retry',
      argv,
      { hint: { type: 'string' }, task: { type: 'string' } },
      true,
    );
    const ref = takeTaskRef('retry', positionals);
    refuseSecretsInHint(values.hint);
    const result = await withTaskClient(async ({ client }) => {
      const target = await resolveTarget(client, 'retry', ref);
      if (target.kind === 'task') {
        if (values.task !== undefined)
          throw new UsageError(
            `taskloop retry: --task applies to a project, and ${target.task.handle.workflowId} is a task; leave --task out`,
          );
        return retryTask(client, target.task, values.hint);
      }
      const reset = await retryProjectTasks(client, target.project, { taskId: values.task, hint: values.hint });
      return { kind: 'project' as const, workflowId: target.project.handle.workflowId, reset };
    });
    printRetry(result, values.hint !== undefined);
    return 0;
  },
};

function printRetry(
  result: RetryResult | { kind: 'project'; workflowId: string; reset: string[] },
  withHint: boolean,
): void {
  const hinted = withHint ? ' with your hint' : '';
  if (result.kind === 'project') {
    console.log(`retry accepted: project ${result.workflowId} runs again${hinted}: ${result.reset.join(', ')}`);
    console.log(`follow it:  taskloop watch ${result.workflowId}`);
    return;
  }
  if (result.kind === 'updated') {
    console.log(`retry accepted: ${result.workflowId} starts attempt ${result.attempt}${hinted}`);
  } else if (!result.started) {
    console.log(
      `${result.workflowId} is already running again (started by someone else meanwhile); nothing new started`,
    );
  } else {
    console.log(
      `started a new run of ${result.workflowId} on task queue ${result.taskQueue}: attempt ${result.attempt}${hinted}, ${result.carriedAttempts} earlier attempt(s) carried`,
    );
  }
  console.log(`follow it:  taskloop status ${result.workflowId}`);
}
