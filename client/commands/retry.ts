// `taskloop retry ID [--hint TEXT]`: another attempt for a task that waits for a hint or has failed.
import { parseFlags } from '../args.js';
import { resolveTask, takeTaskRef } from '../tasks/resolve-task.js';
import { retryTask } from '../tasks/retry-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop retry ID [--hint TEXT]

Gives a task another attempt, with your hint in the coder's context:
- a running task that waits for a hint, or failed and is inside its retry window (run --retry-window), gets the
  \`retry\` update; the task refuses it (exit 1, with its reason) when there is nothing to retry;
- a closed task that FAILED or was CANCELLED starts again under the same workflow id, carrying its earlier
  attempts (their test evidence and findings) so attempt numbering and evidence continue;
- a COMPLETED task is not retried (exit 1).
ID is a workflow id (task-<project>-<id>) or a task id.

  --hint TEXT   guidance for the coder, shown in the next attempt's context

Exit codes: 0 retry accepted or started, 1 refused or nothing to retry, 2 unknown or ambiguous ID.`;

export const retryCommand: Command = {
  summary: 'retry a failed task, optionally with a hint',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('retry', argv, { hint: { type: 'string' } }, true);
    const ref = takeTaskRef('retry', positionals);
    const result = await withTaskClient(async ({ client }) => retryTask(client, await resolveTask(client, 'retry', ref), values.hint));
    const withHint = values.hint === undefined ? '' : ' with your hint';
    if (result.kind === 'updated') {
      console.log(`retry accepted: ${result.workflowId} starts attempt ${result.attempt}${withHint}`);
    } else if (!result.started) {
      console.log(`${result.workflowId} is already running again (started by someone else meanwhile); nothing new started`);
    } else {
      console.log(`started a new run of ${result.workflowId} on task queue ${result.taskQueue}: attempt ${result.attempt}${withHint}, ${result.carriedAttempts} earlier attempt(s) carried`);
    }
    console.log(`follow it:  taskloop status ${result.workflowId}`);
    return 0;
  },
};
