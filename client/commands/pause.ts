// `taskloop pause ID`: the task stops before its next node (the running node finishes first).
import { pauseSignal } from '../../workflows/messages.js';
import { parseFlags } from '../args.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { signalTask } from '../tasks/signal-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop pause ID

Sends the \`pause\` signal: the task finishes its running node and waits before the next one, with status PAUSED,
until \`taskloop resume ID\` (or \`taskloop cancel ID\`). ID is a workflow id (task-<project>-<id>) or a task id.

Exit codes: 0 sent, 1 the task has already closed, 2 unknown or ambiguous ID.`;

export const pauseCommand: Command = {
  summary: 'pause a task before its next node',
  help,
  async run(argv) {
    const { positionals } = parseFlags('pause', argv, {}, true);
    const ref = takeTaskRef('pause', positionals);
    const workflowId = await withTaskClient(({ client }) => signalTask(client, 'pause', ref, (handle) => handle.signal(pauseSignal)));
    console.log(`sent pause to ${workflowId}: it stops before its next node; continue it with: taskloop resume ${workflowId}`);
    return 0;
  },
};
