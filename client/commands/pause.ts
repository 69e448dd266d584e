// `taskloop pause ID`: a task stops before its next node (the running node finishes first); a project starts no
// new task and pauses its running ones the same way.
import { pauseSignal } from '../../workflows/messages.js';
import { parseFlags } from '../args.js';
import { signalTarget } from '../projects/signal-target.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';
import { printActionJson } from '../output/action-json.js';

const help = `Usage: taskloop pause ID [--json]

Sends the \`pause\` signal: the task finishes its running node and waits before the next one, with status PAUSED,
until \`taskloop resume ID\` (or \`taskloop cancel ID\`). A project starts no new task and pauses its running tasks;
a paused project stays open even when nothing is left to run. ID is a workflow id (task-<project>-<id> or
project-<name>), a task id, or a project name.

  --json   stdout gets {"command", "asked", "happened", "ids", "details"} instead of the sentence

Exit codes: 0 sent, 1 the task or project has already closed, 2 unknown or ambiguous ID.`;

export const pauseCommand: Command = {
  summary: 'pause a task before its next node, or a whole project',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('pause', argv, { json: { type: 'boolean' } }, true);
    const ref = takeTaskRef('pause', positionals);
    const { kind, workflowId } = await withTaskClient(({ client }) =>
      signalTarget(client, 'pause', ref, (handle) => handle.signal(pauseSignal)),
    );
    const effect =
      kind === 'task'
        ? 'it stops before its next node'
        : 'it starts no new task and its running tasks stop before their next node';
    if (values.json)
      printActionJson({
        command: 'pause',
        asked: { id: ref },
        happened: 'signalled',
        ids: [workflowId],
        details: { kind },
      });
    else console.log(`sent pause to ${workflowId}: ${effect}; continue it with: taskloop resume ${workflowId}`);
    return 0;
  },
};
