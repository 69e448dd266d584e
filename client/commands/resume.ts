// `taskloop resume ID`: a paused task goes on with its next node.
import { resumeSignal } from '../../workflows/messages.js';
import { parseFlags } from '../args.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { signalTask } from '../tasks/signal-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop resume ID

Sends the \`resume\` signal: a paused task goes on with its next node. ID is a workflow id (task-<project>-<id>)
or a task id.

Exit codes: 0 sent, 1 the task has already closed, 2 unknown or ambiguous ID.`;

export const resumeCommand: Command = {
  summary: 'resume a paused task',
  help,
  async run(argv) {
    const { positionals } = parseFlags('resume', argv, {}, true);
    const ref = takeTaskRef('resume', positionals);
    const workflowId = await withTaskClient(({ client }) => signalTask(client, 'resume', ref, (handle) => handle.signal(resumeSignal)));
    console.log(`sent resume to ${workflowId}; follow it with: taskloop status ${workflowId}`);
    return 0;
  },
};
