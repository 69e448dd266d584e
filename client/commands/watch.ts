// `taskloop watch ID`: live progress of a task or a project until it ends, then its outcome or report.
import { WorkflowFailedError } from '@temporalio/client';
import { parseFlags } from '../args.js';
import { withTaskLinesJson } from '../output/json-rows.js';
import { WorkFailed } from '../cli-errors.js';
import { watchProject } from '../watch/watch-project.js';
import { formatProjectReport } from '../output/project-report.js';
import { createTaskBoard } from '../output/task-board.js';
import { formatOutcome } from '../output/task-report.js';
import { resolveTarget } from '../projects/resolve-target.js';
import { watchTask } from '../watch/watch-task.js';
import { awaitOutcome } from '../tasks/await-outcome.js';
import { createReconnect } from '../tasks/reconnect.js';
import { whileCheckingWorker } from '../tasks/queue-pollers.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop watch ID [--json]

Follows a task or a project live until it ends, one line per change with the time since watching began:
- a task: its status, phase (claim, code, test, review, judge, commit) and attempt, then its outcome;
- a project: each task's state, phase and attempt, and a progress bar, then the project report.
ID is a task id, a project name, or a workflow id (task-<project>-<id> or project-<name>). Ctrl-C stops
watching, not the work. A workflow that has already ended is shown at once.

  --json   progress lines go to stderr; stdout gets the outcome (task) or the report (project) as JSON

When no worker serves the workflow's task queue, says so within seconds (naming \`taskloop worker\` and the queue)
and keeps watching.

Exit codes: 0 it ended COMPLETED (every task COMPLETED, for a project), 1 it did not, 2 unknown or ambiguous ID.`;

export const watchCommand: Command = {
  summary: 'follow a task or a project live until it ends',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('watch', argv, { json: { type: 'boolean' } }, true);
    const ref = takeTaskRef('watch', positionals);
    const json = values.json ?? false;
    // On a terminal (and without NO_COLOR / --no-color) the task's line is redrawn in place; elsewhere plain lines.
    const board = createTaskBoard(json ? process.stderr : process.stdout);
    const say = (line: string) => (board ? board.print(line) : json ? console.error(line) : console.log(line));
    return withTaskClient(async ({ client, target: server }) => {
      const target = await resolveTarget(client, 'watch', ref);
      // The server may restart while we watch: the calls ride it out and say so (see reconnect.ts).
      const reconnect = createReconnect(server.address, say);
      if (target.kind === 'task') {
        const { handle } = target.task;
        say(`watching task ${handle.workflowId}`);
        await whileCheckingWorker(
          handle,
          say,
          () => watchTask(handle, say, { board, reconnect }),
          undefined,
          reconnect,
        );
        board?.done();
        const outcome = await awaitOutcome('watch', handle, say, undefined, reconnect);
        console.log(json ? JSON.stringify(outcome, null, 2) : formatOutcome(outcome));
        return outcome.status === 'COMPLETED' ? 0 : 1;
      }
      const { handle } = target.project;
      say(`watching project ${handle.workflowId}`);
      await whileCheckingWorker(
        handle,
        say,
        () => watchProject(handle, say, { board, reconnect }),
        undefined,
        reconnect,
      );
      board?.done();
      const report = await reconnect(() => handle.result()).catch((error: unknown) => {
        if (!(error instanceof WorkflowFailedError)) throw error;
        throw new WorkFailed(
          `taskloop watch: project ${handle.workflowId} ended without a report: ${error.cause?.message ?? error.message}`,
        );
      });
      console.log(json ? JSON.stringify(withTaskLinesJson(report), null, 2) : formatProjectReport(report));
      return report.counts.COMPLETED === report.total ? 0 : 1;
    });
  },
};
