// `taskloop show TASK_OR_EVAL`: what the model did, attempt by attempt (turns, tool calls, in-attempt test runs, the
// diff, the verdicts, the cause and class, tokens and time), as text, JSON or one self-contained HTML page.
import { statSync, type Stats } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseFlags } from '../args.js';
import { formatEvalReport } from '../eval/report-output.js';
import { formatTrajectory } from '../show/format-text.js';
import { findEvalReport, loadEval, readEvalReport } from '../show/load-eval.js';
import { loadTrajectory } from '../show/load-trajectory.js';
import { renderEvalPage, renderTaskPage } from '../show/render-html.js';
import { UsageError } from '../cli-errors.js';
import { resolveTask } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop show TASK_OR_EVAL [--json] [--html FILE]

Shows a task's trajectory, per attempt: the environment its tests ran in, every message the model got (the system
prompt, the task as sent with the files shown and a retry's evidence; whole), the model's turns (text, each tool
call with its arguments and the start of its reply), the tests it ran inside the attempt (run_tests), the attempt's
diff, the test node's result, the review and judge verdicts, the failure's node, cause and class, tokens and time,
and for a failed task the next step. A running task shows what it has so far and what it does now.
A task with approval required shows its review rounds: each round's request for changes, the attempts that
followed and their verdicts, the commit that waited and the answer, and the last word (approved, rejected, waiting).
TASK_OR_EVAL is a task id or workflow id (as for taskloop status), or an eval: its id, its folder or its
report.json (as taskloop eval wrote them); an eval shows its report, then each instance's trajectory.

Transcripts and diffs are read from this machine's disk, where the worker that ran the attempt wrote them: for an
attempt run on another host, show says which host and path (run it there). Secrets stay scrubbed.

  --json         print {"kind": "task", "trajectory"} or {"kind": "eval", "reportFile", "report", "trajectories"}
  --html FILE    write one self-contained HTML page (no script, nothing fetched) to FILE and print its address;
                 an eval's page has its picture and per-instance table, each row opening its trajectory

Exit codes: 0 shown, 1 could not be read (e.g. the server is down), 2 unknown or ambiguous id, or a bad flag.`;

export const showCommand: Command = {
  summary: 'show what the model did in a task or eval: turns, tool calls, diffs, verdicts (text, JSON or HTML)',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags(
      'show',
      argv,
      { json: { type: 'boolean' }, html: { type: 'string' } },
      true,
    );
    const ref = positionals[0];
    if (positionals.length !== 1 || !ref)
      throw new UsageError(
        `taskloop show: expected one task id, workflow id or eval (its id, folder or report.json), got ${positionals.length} (${positionals.join(' ') || 'none'}); e.g. taskloop show task-default-fix-add-1a2b3c`,
      );
    if (values.html !== undefined) checkPageFile(values.html);
    const reportFile = findEvalReport(ref);
    if (!reportFile && (ref.endsWith('.json') || ref.includes('/')))
      throw new UsageError(
        `taskloop show: ${ref} is no eval report: no such file, nor a report.json in that folder; pass the report.json that taskloop eval wrote (under .taskloop/eval/<eval id>/ unless --out named another folder)`,
      );
    // A report that is not one is a usage error, said before any server is asked.
    const evalFiles = reportFile ? await readEvalReport(reportFile) : undefined;
    return withTaskClient(async ({ client }) => {
      if (reportFile && evalFiles) {
        const loaded = await loadEval(client, reportFile, evalFiles);
        if (values.html) await writePage(values.html, renderEvalPage(loaded), values.json);
        if (values.json)
          console.log(
            JSON.stringify(
              {
                kind: 'eval',
                reportFile,
                report: loaded.report,
                trajectories: Object.fromEntries(loaded.trajectories),
              },
              null,
              2,
            ),
          );
        else if (!values.html) {
          console.log(formatEvalReport(loaded.report));
          for (const [workflowId, trajectory] of loaded.trajectories)
            console.log(
              `\n${'missing' in trajectory ? `${workflowId}: ${trajectory.missing}` : formatTrajectory(trajectory)}`,
            );
        }
        return 0;
      }
      const trajectory = await loadTrajectory(client, await resolveTask(client, 'show', ref));
      if (values.html) await writePage(values.html, renderTaskPage(trajectory), values.json);
      if (values.json) console.log(JSON.stringify({ kind: 'task', trajectory }, null, 2));
      else if (!values.html) console.log(formatTrajectory(trajectory));
      return 0;
    });
  },
};

/** `--html` names the page's file: a folder (or a name ending in a separator) is refused before anything is read. */
function checkPageFile(file: string): void {
  const isFolder = file.endsWith('/') || file.endsWith(path.sep) || statSafe(file)?.isDirectory() === true;
  if (isFolder)
    throw new UsageError(
      `taskloop show: --html ${file} is a folder: name the page's file, e.g. --html ${path.join(file, 'trajectory.html')}`,
    );
}

function statSafe(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the page; says where on stdout, or on stderr when stdout carries the JSON. */
async function writePage(file: string, html: string, json: boolean | undefined): Promise<void> {
  const target = path.resolve(file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, html);
  (json ? console.error : console.log)(`wrote ${target}: open ${pathToFileURL(target).href}`);
}
