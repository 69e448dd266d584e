// `taskloop status ID`: what a task or project is doing now (its `state` query) or how it ended (outcome, report).
import { parseFlags } from '../args.js';
import { formatProjectReport } from '../output/project-report.js';
import { formatProjectState } from '../output/project-state.js';
import { projectStatusJson, taskStatusJson } from '../output/status-json.js';
import { formatOutcome, formatState } from '../output/task-report.js';
import { readProject } from '../projects/read-project.js';
import { resolveTarget } from '../projects/resolve-target.js';
import { formatLiveCoder } from '../tasks/live-coder.js';
import { formatLiveEnvironment } from '../tasks/live-environment.js';
import { readTask } from '../tasks/read-task.js';
import { assertWorkerServes } from '../tasks/queue-pollers.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop status ID [--json]

Shows a task: while it runs, its status (RUNNING, PAUSED, WAITING_FOR_HINT, AWAITING_APPROVAL, FAILED in its
retry window), phase, attempt, each attempt's status, failure class and reason, and telemetry; once closed, its outcome.
Shows a project: while it runs, its status (RUNNING, PAUSED) and each task's state, phase, attempts and
dependencies; once closed, its report.
ID is a workflow id (task-<project>-<id> or project-<name>), a task id (looked up by the TaskId search
attribute), or a project name.

  --json   print {"workflowId", "executionStatus", "taskQueue", "state" | "outcome" | "error"} as JSON (a running
           task adds "live", null without a coder heartbeat, and "environment", null unless its environment is
           being found or built: {"step": "building", "name", "elapsedMs"}); for a project {"kind": "project", ...,
           "state" | "report" | "error"}, each task a line whose "status" is PENDING, RUNNING, COMPLETED, FAILED,
           SKIPPED or CANCELLED, with every field (null where it has none), as in \`taskloop report --json\`. Deprecated,
           gone in the release after 0.1: "workflowStatus" (the same value as "executionStatus") and, while the
           project runs, each line's "state" (the same word as "status"); see docs/cli.md#json-output

Exit codes: 0 shown, 1 could not be read (e.g. no worker serves its task queue: said at once, naming the queue),
2 unknown or ambiguous ID.`;

export const statusCommand: Command = {
  summary: 'show what a task or project is doing, or how it ended',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('status', argv, { json: { type: 'boolean' } }, true);
    const ref = takeTaskRef('status', positionals);
    return withTaskClient(async ({ client }) => {
      const target = await resolveTarget(client, 'status', ref);
      await assertWorkerServes(
        client,
        'status',
        target.kind === 'task' ? target.task.description : target.project.description,
      );
      if (target.kind === 'project') {
        const reading = await readProject(client, 'status', target.project);
        if (values.json) console.log(JSON.stringify(projectStatusJson(reading), null, 2));
        else if ('state' in reading) console.log(formatProjectState(reading.state));
        else if ('report' in reading)
          console.log(`${reading.workflowId}: ${reading.report.status}\n${formatProjectReport(reading.report)}`);
        else console.log(`${reading.workflowId}: workflow ${reading.executionStatus}: ${reading.error}`);
        return 0;
      }
      const reading = await readTask(client, target.task);
      if (values.json) console.log(JSON.stringify(taskStatusJson(reading), null, 2));
      else if ('state' in reading)
        console.log(
          [
            formatState(reading.state),
            reading.environment && formatLiveEnvironment(reading.environment),
            reading.live && formatLiveCoder(reading.live),
          ]
            .filter(Boolean)
            .join('\n'),
        );
      else if ('outcome' in reading) console.log(formatOutcome(reading.outcome));
      else console.log(`${reading.workflowId}: workflow ${reading.executionStatus}: ${reading.error}`);
      return 0;
    });
  },
};
