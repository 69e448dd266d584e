// `taskloop report PROJECT`: the project's report card: final once it has ended, live while it runs.
import { parseFlags } from '../args.js';
import { withTaskLinesJson } from '../output/json-rows.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import { formatProjectReport } from '../output/project-report.js';
import { formatReportCard, formatReportCardMarkdown } from '../output/report-card.js';
import { formatLiveReport } from '../output/project-state.js';
import { formatReportMarkdown } from '../output/report-markdown.js';
import { readProjectReport } from '../projects/read-project.js';
import { readReviewAndLanding } from '../projects/review-and-landing.js';
import { formatReviewAndLanding } from '../output/review-and-landing.js';
import { showReportCard } from '../projects/report-cards.js';
import { resolveProject } from '../projects/resolve-target.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop report PROJECT [--json | --markdown]

Prints a project's report: one line per task (status, attempts, time, failure class, reason), the pass rate at
attempt 1 and overall, and, once the project has ended, what it spent (attempts, model requests, tokens, time)
and the coder's telemetry, then the learning report card: grade, fidelity, pass rates at attempts 1 and 2,
compression, failure patterns, trends against the project's previous run, improvement actions, skills and
lessons (each final card is kept under <state dir>/reports/<project>/ for the next run's trends).
While the project runs, the report so far (from its state query; "live": true in JSON).
Tasks with landOn or approval required add what landed (task, branch, commit, when) and what waits for whom and
for how long (a person's approval of a round; a branch's landing queue, at which position): "landed" and
"waiting" in JSON.
PROJECT is the project name of the tasks file or its workflow id project-<name>; for a project run by a
schedule, its latest run.

  --json       the report as JSON (the project workflow's result when it has ended, plus "landed", "waiting",
               "card")
  --markdown   the report as a Markdown table and a report card section

Exit codes: 0 shown, 1 the project ended without a report (terminated, failed) or could not be read,
2 unknown project or bad flags.`;

export const reportCommand: Command = {
  summary: "print a project's report (table, --json or --markdown)",
  help,
  async run(argv) {
    const { values, positionals } = parseFlags(
      'report',
      argv,
      { json: { type: 'boolean' }, markdown: { type: 'boolean' } },
      true,
    );
    if (positionals.length !== 1 || !positionals[0]) {
      throw new UsageError(
        `taskloop report: expected one project name, got ${positionals.length} (${positionals.join(' ') || 'none'}); e.g. taskloop report calc`,
      );
    }
    if (values.json && values.markdown) throw new UsageError('taskloop report: pass --json or --markdown, not both');
    const ref = positionals[0];
    const [reading, lists] = await withTaskClient(async ({ client }) => {
      const read = await readProjectReport(client, 'report', await resolveProject(client, 'report', ref));
      // What landed and what waits for whom: read from the tasks themselves (the project keeps neither).
      return [read, 'report' in read ? await readReviewAndLanding(client, read.report.tasks, Date.now()) : undefined];
    });
    if (!('report' in reading))
      throw new WorkFailed(
        `taskloop report: project ${reading.workflowId} has no report (workflow ${reading.executionStatus}: ${reading.error})`,
      );
    const { report } = reading;
    // Only a final report with its run's tasks gets a card: a live one would store a half-run.
    const card =
      'live' in report || !report.runTasks
        ? undefined
        : (await showReportCard(report.project, reading.runId, report.runTasks, new Date())).card;
    if (values.json)
      console.log(JSON.stringify({ ...withTaskLinesJson(report), ...lists, ...(card ? { card } : {}) }, null, 2));
    else if (values.markdown)
      console.log([formatReportMarkdown(report), ...(card ? ['', formatReportCardMarkdown(card)] : [])].join('\n'));
    else {
      const text =
        'live' in report
          ? formatLiveReport(report)
          : `project ${report.project}: ${report.status}\n${formatProjectReport(report)}`;
      const withLists = [text, ...(lists ? formatReviewAndLanding(lists) : [])].join('\n');
      console.log(card ? `${withLists}\n\n${formatReportCard(card)}` : withLists);
    }
    return 0;
  },
};
