// `taskloop cancel ID [--reason TEXT]`: ends a task (the running node is cancelled and nothing is committed), or a
// project (nothing more starts, pending tasks are cancelled, running ones get the cancel).
import type { WorkflowHandle } from '@temporalio/client';
import { cancelSignal } from '../../workflows/messages.js';
import { parseFlags } from '../args.js';
import { signalTarget } from '../projects/signal-target.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';
import { printActionJson } from '../output/action-json.js';

const help = `Usage: taskloop cancel ID [--reason TEXT] [--json]

Sends the \`cancel\` signal (and, to a task, a workflow cancel request): the running node is cancelled, the
worktree removed, nothing committed, and the task ends CANCELLED, its workflow Canceled (a later \`taskloop retry ID\`
can start it again with its evidence). A project starts nothing more,
marks its pending tasks CANCELLED, cancels its running ones and ends with its report. ID is a workflow id
(task-<project>-<id> or project-<name>), a task id, or a project name.

  --reason TEXT   why, kept in the outcome (or the project report) and the TASK_CANCELLED event

  --json   stdout gets {"command", "asked", "happened", "ids", "details"} instead of the sentence

Exit codes: 0 sent, 1 the task or project has already closed, 2 unknown or ambiguous ID.`;

export const cancelCommand: Command = {
  summary: 'cancel a task or a project (nothing is committed)',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags(
      'cancel',
      argv,
      { reason: { type: 'string' }, json: { type: 'boolean' } },
      true,
    );
    const ref = takeTaskRef('cancel', positionals);
    const reason = values.reason === undefined ? {} : { reason: values.reason };
    const signal = (handle: WorkflowHandle) => handle.signal(cancelSignal, reason);
    // The signal carries the reason; the cancel request makes a task's workflow end as cancelled in Temporal (the
    // task waits for it after the signal, which says it follows).
    const cancelTask = async (handle: WorkflowHandle) => {
      await handle.signal(cancelSignal, { ...reason, requestFollows: true });
      await handle.cancel();
    };
    const { kind, workflowId } = await withTaskClient(({ client }) =>
      signalTarget(client, 'cancel', ref, signal, cancelTask),
    );
    const next = kind === 'task' ? `taskloop status ${workflowId}` : `taskloop report ${workflowId}`;
    if (values.json)
      printActionJson({
        command: 'cancel',
        asked: { id: ref, reason: values.reason ?? null },
        happened: 'signalled',
        ids: [workflowId],
        details: { kind },
      });
    else
      console.log(
        `sent cancel to ${workflowId}${values.reason === undefined ? '' : ` (reason: ${values.reason})`}; see how it ended with: ${next}`,
      );
    return 0;
  },
};
