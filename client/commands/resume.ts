// `taskloop resume ID`: a paused task goes on with its next node; a paused project starts tasks again.
import { resumeSignal } from '../../workflows/messages.js';
import { parseFlags } from '../args.js';
import { signalTarget } from '../projects/signal-target.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';
import { printActionJson } from '../output/action-json.js';

const help = `Usage: taskloop resume ID [--json]

Sends the \`resume\` signal: a paused task goes on with its next node; a paused project resumes its running tasks
and starts ready ones again. ID is a workflow id (task-<project>-<id> or project-<name>), a task id, or a project
name.

  --json   stdout gets {"command", "asked", "happened", "ids", "details"} instead of the sentence

Exit codes: 0 sent, 1 the task or project has already closed, 2 unknown or ambiguous ID.`;

export const resumeCommand: Command = {
  summary: 'resume a paused task or project',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('resume', argv, { json: { type: 'boolean' } }, true);
    const ref = takeTaskRef('resume', positionals);
    const { kind, workflowId } = await withTaskClient(({ client }) =>
      signalTarget(client, 'resume', ref, (handle) => handle.signal(resumeSignal)),
    );
    if (values.json)
      printActionJson({
        command: 'resume',
        asked: { id: ref },
        happened: 'signalled',
        ids: [workflowId],
        details: { kind },
      });
    else
      console.log(
        `sent resume to ${workflowId}; follow it with: taskloop ${kind === 'task' ? 'status' : 'watch'} ${workflowId}`,
      );
    return 0;
  },
};
