// `taskloop resume ID`: a paused task goes on with its next node; a paused project starts tasks again.
import { resumeSignal } from '../../workflows/messages.js';
import { parseFlags } from '../args.js';
import { signalTarget } from '../projects/signal-target.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop resume ID

Sends the \`resume\` signal: a paused task goes on with its next node; a paused project resumes its running tasks
and starts ready ones again. ID is a workflow id (task-<project>-<id> or project-<name>), a task id, or a project
name.

Exit codes: 0 sent, 1 the task or project has already closed, 2 unknown or ambiguous ID.`;

export const resumeCommand: Command = {
  summary: 'resume a paused task or project',
  help,
  async run(argv) {
    const { positionals } = parseFlags('resume', argv, {}, true);
    const ref = takeTaskRef('resume', positionals);
    const { kind, workflowId } = await withTaskClient(({ client }) =>
      signalTarget(client, 'resume', ref, (handle) => handle.signal(resumeSignal)),
    );
    console.log(
      `sent resume to ${workflowId}; follow it with: taskloop ${kind === 'task' ? 'status' : 'watch'} ${workflowId}`,
    );
    return 0;
  },
};
