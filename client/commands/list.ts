// `taskloop list`: taskloop's workflows from a visibility query over its search attributes.
import { intFlag, parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { formatWorkflowList } from '../output/workflow-list.js';
import { buildListQuery } from '../projects/list-query.js';
import { listWorkflows } from '../projects/list-workflows.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop list [--status S] [--project P] [--class C] [--execution-status E] [--type T] [--limit N] [--json]

Lists task and project workflows, newest first, from Temporal's visibility store (the same filters work in the
Web UI). Each filter narrows the list; visibility is eventually consistent, so a just-started workflow may take
a second to show.

  --status S             a task's own status: RUNNING, PAUSED, WAITING_FOR_HINT, AWAITING_APPROVAL, COMPLETED, FAILED, CANCELLED
                         (tasks only: projects have no TaskStatus)
  --project P            the Project search attribute (tasks of the project and the project itself)
  --class C              the failure class of the task's last failure (e.g. model_problem, environment_problem)
  --execution-status E   the workflow's own status: Running, Completed, Failed, Canceled, Terminated,
                         ContinuedAsNew, TimedOut
  --type T               task or project
  --limit N              at most N rows (1-1000, default 50)
  --json                 print the rows as a JSON array ({workflowId, runId, taskId, type, project, status,
                         executionStatus, phase, attempt, failureClass, startTime, closeTime}; every key in every
                         row, null where it has no value)
  --query                print the visibility query instead of running it (for the Web UI or \`temporal workflow list\`)

Exit codes: 0 listed (also when nothing matches), 1 the server failed, 2 a bad flag value.`;

const options = {
  status: { type: 'string' },
  project: { type: 'string' },
  class: { type: 'string' },
  'execution-status': { type: 'string' },
  type: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  query: { type: 'boolean' },
} as const;

export const listCommand: Command = {
  summary: 'list task and project workflows (filter by status, project, failure class)',
  help,
  async run(argv) {
    const { values } = parseFlags('list', argv, options);
    const limit = intFlag('list', 'limit', values.limit, 50, 1, 1000);
    const query = buildListQuery({
      status: values.status,
      project: values.project,
      failureClass: values.class,
      executionStatus: values['execution-status'],
      type: values.type,
    });
    if (!query.success) throw new UsageError(`taskloop list: ${query.error}`);
    if (values.query) {
      console.log(query.data);
      return 0;
    }
    const rows = await withTaskClient(({ client }) => listWorkflows(client, query.data, limit));
    console.log(values.json ? JSON.stringify(rows, null, 2) : formatWorkflowList(rows));
    return 0;
  },
};
