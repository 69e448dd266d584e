// `taskloop retry ID [--hint TEXT]`: another attempt for a task that waits for a hint or has failed, or another run
// of the failed tasks of a running project.
import { parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { resolveTarget } from '../projects/resolve-target.js';
import { retryProjectTasks } from '../projects/retry-project.js';
import { takeTaskRef } from '../tasks/resolve-task.js';
import { retryTask, type RetryResult } from '../tasks/retry-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';
import { refuseSecretsInHint } from '../tasks/refuse-secrets.js';
import { printActionJson, type ActionJson } from '../output/action-json.js';
import { watchCommand } from './watch.js';

const help = `Usage: taskloop retry ID [--hint TEXT] [--task TASK] [--wait] [--json]

Gives a task another attempt, with your hint in the coder's context:
- a running task that waits for a hint, or failed and is inside its retry window (run --retry-window), gets the
  \`retry\` update; the task refuses it (exit 1, with its reason) when there is nothing to retry;
- a closed task that FAILED or was CANCELLED starts again under the same workflow id, carrying its earlier
  attempts (their test evidence and findings) so attempt numbering and evidence continue;
- a COMPLETED task is not retried (exit 1).
For a running project (e.g. paused, or with tasks still running), runs its FAILED and CANCELLED tasks again (or
only --task TASK, which may also be SKIPPED), with their skipped dependants; a closed project takes no more
work (retry its tasks by their workflow ids instead).
ID is a workflow id (task-<project>-<id> or project-<name>), a task id, or a project name.

  --hint TEXT   guidance for the coder, shown in the next attempt's context
  --task TASK   with a project: the one task to run again
  --wait        then follow it live until it ends (as taskloop watch): exit 0 when it COMPLETED, 1 when not
  --json        stdout gets {"command", "asked", "happened", "ids", "details"}; with --wait, the outcome (task) or
                the report (project) as taskloop watch --json prints it, progress on stderr

Exit codes: 0 retry accepted or started (with --wait: and it COMPLETED), 1 refused, nothing to retry (with --wait:
it did not complete), 2 unknown or ambiguous ID.`;

export const retryCommand: Command = {
  summary: 'retry a failed task (or the failed tasks of a project), optionally with a hint',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags(
      'retry',
      argv,
      {
        hint: { type: 'string' },
        task: { type: 'string' },
        wait: { type: 'boolean' },
        json: { type: 'boolean' },
      },
      true,
    );
    const ref = takeTaskRef('retry', positionals);
    refuseSecretsInHint(values.hint);
    const result = await withTaskClient(async ({ client }) => {
      const target = await resolveTarget(client, 'retry', ref);
      if (target.kind === 'task') {
        if (values.task !== undefined)
          throw new UsageError(
            `taskloop retry: --task applies to a project, and ${target.task.handle.workflowId} is a task; leave --task out`,
          );
        return retryTask(client, target.task, values.hint);
      }
      const reset = await retryProjectTasks(client, target.project, { taskId: values.task, hint: values.hint });
      return { kind: 'project' as const, workflowId: target.project.handle.workflowId, reset };
    });
    const wait = values.wait ?? false;
    const json = values.json ?? false;
    if (json && !wait) printActionJson(retryJson(ref, values, result));
    else if (json) console.error(describeRetry(result, values.hint !== undefined).join('\n'));
    else describeRetry(result, values.hint !== undefined, wait).forEach((line) => console.log(line));
    // Followed as `taskloop watch` follows it: live, then its outcome or report, and the exit code that says how it ended.
    if (wait) return watchCommand.run([result.workflowId, ...(json ? ['--json'] : [])]);
    return 0;
  },
};

type RetryDone = RetryResult | { kind: 'project'; workflowId: string; reset: string[] };

function retryJson(ref: string, values: { hint?: string; task?: string }, result: RetryDone): ActionJson {
  const asked = { id: ref, hint: values.hint ?? null, task: values.task ?? null };
  if (result.kind === 'project')
    return {
      command: 'retry',
      asked,
      happened: 'accepted',
      ids: [result.workflowId],
      details: { tasks: result.reset },
    };
  if (result.kind === 'updated')
    return {
      command: 'retry',
      asked,
      happened: 'accepted',
      ids: [result.workflowId],
      details: { attempt: result.attempt },
    };
  return {
    command: 'retry',
    asked,
    happened: result.started ? 'started' : 'already-running',
    ids: [result.workflowId],
    details: result.started
      ? { attempt: result.attempt, carriedAttempts: result.carriedAttempts, taskQueue: result.taskQueue }
      : {},
  };
}

/** What the retry did, in lines for a person; the follow-up hint only when not following it here. */
function describeRetry(result: RetryDone, withHint: boolean, following = false): string[] {
  const hinted = withHint ? ' with your hint' : '';
  const lines: string[] = [];
  if (result.kind === 'project') {
    lines.push(`retry accepted: project ${result.workflowId} runs again${hinted}: ${result.reset.join(', ')}`);
    if (!following) lines.push(`follow it:  taskloop watch ${result.workflowId}`);
    return lines;
  }
  if (result.kind === 'updated') {
    lines.push(`retry accepted: ${result.workflowId} starts attempt ${result.attempt}${hinted}`);
  } else if (!result.started) {
    lines.push(
      `${result.workflowId} is already running again (started by someone else meanwhile); nothing new started`,
    );
  } else {
    lines.push(
      `started a new run of ${result.workflowId} on task queue ${result.taskQueue}: attempt ${result.attempt}${hinted}, ${result.carriedAttempts} earlier attempt(s) carried`,
    );
  }
  if (!following) lines.push(`follow it:  taskloop status ${result.workflowId}`);
  return lines;
}
