// `taskloop report PROJECT`: the project's report card: final once it has ended, live while it runs.
import { parseFlags } from '../args.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import { formatProjectReport } from '../output/project-report.js';
import { formatLiveReport } from '../output/project-state.js';
import { formatReportMarkdown } from '../output/report-markdown.js';
import { readProjectReport } from '../projects/read-project.js';
import { resolveProject } from '../projects/resolve-target.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop report PROJECT [--json | --markdown]

Prints a project's report: one line per task (status, attempts, time, failure class, reason), the pass rate at
attempt 1 and overall, and, once the project has ended, what it spent (attempts, model requests, tokens, time)
and the coder's telemetry. While the project runs, the report so far (from its state query; "live": true in JSON).
PROJECT is the project name of the tasks file or its workflow id project-<name>; for a project run by a
schedule, its latest run.

  --json       the report as JSON (the project workflow's result when it has ended)
  --markdown   the report as a Markdown table

Exit codes: 0 shown, 1 the project ended without a report (terminated, failed) or could not be read,
2 unknown project or bad flags.`;

export const reportCommand: Command = {
  summary: "print a project's report (table, --json or --markdown)",
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('report', argv, { json: { type: 'boolean' }, markdown: { type: 'boolean' } }, true);
    if (positionals.length !== 1 || !positionals[0]) {
      throw new UsageError(`taskloop report: expected one project name, got ${positionals.length} (${positionals.join(' ') || 'none'}); e.g. taskloop report calc`);
    }
    if (values.json && values.markdown) throw new UsageError('taskloop report: pass --json or --markdown, not both');
    const ref = positionals[0];
    const reading = await withTaskClient(async ({ client }) => readProjectReport(client, 'report', await resolveProject(client, 'report', ref)));
    if (!('report' in reading)) throw new WorkFailed(`taskloop report: project ${reading.workflowId} has no report (workflow ${reading.workflowStatus}: ${reading.error})`);
    const { report } = reading;
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else if (values.markdown) console.log(formatReportMarkdown(report));
    else console.log('live' in report ? formatLiveReport(report) : `project ${report.project}: ${report.status}\n${formatProjectReport(report)}`);
    return 0;
  },
};
