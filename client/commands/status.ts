// `taskloop status ID`: what a task is doing now (the `state` query) or how it ended (its outcome).
import { parseFlags } from '../args.js';
import { formatOutcome, formatState } from '../output/task-report.js';
import { readTask } from '../tasks/read-task.js';
import { resolveTask, takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop status ID [--json]

Shows a task: while it runs, its status (RUNNING, PAUSED, WAITING_FOR_HINT, FAILED in its retry window), phase,
attempt, each attempt's status, failure class and reason, and telemetry; once closed, its outcome.
ID is a workflow id (task-<project>-<id>) or a task id (looked up by the TaskId search attribute).

  --json   print {"workflowId", "workflowStatus", "taskQueue", "state" | "outcome" | "error"} as JSON

Exit codes: 0 shown, 1 could not be read (e.g. no worker answers the query), 2 unknown or ambiguous ID.`;

export const statusCommand: Command = {
  summary: 'show what a task is doing, or how it ended',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('status', argv, { json: { type: 'boolean' } }, true);
    const ref = takeTaskRef('status', positionals);
    return withTaskClient(async ({ client }) => {
      const reading = await readTask(client, await resolveTask(client, 'status', ref));
      if (values.json) console.log(JSON.stringify(reading, null, 2));
      else if ('state' in reading) console.log(formatState(reading.state));
      else if ('outcome' in reading) console.log(formatOutcome(reading.outcome));
      else console.log(`${reading.workflowId}: workflow ${reading.workflowStatus}: ${reading.error}`);
      return 0;
    });
  },
};
