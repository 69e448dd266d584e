// `taskloop cancel ID [--reason TEXT]`: ends a task; the running node is cancelled and nothing is committed.
import { cancelSignal } from '../../workflows/messages.js';
import { parseFlags } from '../args.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { signalTask } from '../tasks/signal-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop cancel ID [--reason TEXT]

Sends the \`cancel\` signal: the running node is cancelled, the worktree removed, nothing committed, and the task
ends CANCELLED (a later \`taskloop retry ID\` can start it again with its evidence). ID is a workflow id
(task-<project>-<id>) or a task id.

  --reason TEXT   why, kept in the outcome and the TASK_CANCELLED event

Exit codes: 0 sent, 1 the task has already closed, 2 unknown or ambiguous ID.`;

export const cancelCommand: Command = {
  summary: 'cancel a task (nothing is committed)',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('cancel', argv, { reason: { type: 'string' } }, true);
    const ref = takeTaskRef('cancel', positionals);
    const request = values.reason === undefined ? {} : { reason: values.reason };
    const workflowId = await withTaskClient(({ client }) => signalTask(client, 'cancel', ref, (handle) => handle.signal(cancelSignal, request)));
    console.log(`sent cancel to ${workflowId}${values.reason === undefined ? '' : ` (reason: ${values.reason})`}; see how it ended with: taskloop status ${workflowId}`);
    return 0;
  },
};
