// `taskloop approve | request-changes | reject ID`: a person's answer to a task that waits for approval
// (docs/review-and-land.md). One file for the three: they differ only in the words they carry.
import type { ApprovalAnswerKind } from '../../domain/approval.js';
import { parseFlags } from '../args.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import { answerAuthor, answerTask } from '../review/answer-task.js';
import { refuseSecretsInHint } from '../tasks/refuse-secrets.js';
import { resolveTask, takeTaskRef } from '../tasks/resolve-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const common = `  --round N     the round you read (taskloop review names it): refused if another round waits by now
  --as NAME     who answers (default: TASKLOOP_USER, else USER), recorded with the answer and its time

ID is a workflow id (task-<project>-<id>) or a task id. The task refuses an answer (exit 1, with its reason) when it
does not wait for approval, or when --round names a round that no longer waits. See docs/review-and-land.md.

Exit codes: 0 taken, 1 refused, 2 unknown ID or bad usage.`;

const texts: Record<ApprovalAnswerKind, { usage: string; what: string; flag: 'comment' | 'reason'; words: string }> = {
  approve: {
    usage: 'taskloop approve ID [--comment TEXT] [--round N] [--as NAME]',
    what: 'Approves the change that waits: the task completes (and lands, when it has landOn).',
    flag: 'comment',
    words: '  --comment TEXT   a note kept with the approval',
  },
  'request-changes': {
    usage: 'taskloop request-changes ID --comment TEXT [--round N] [--as NAME]',
    what: "Asks for changes: a new round starts on top of the change that waits, its coder told your comment as the reviewer's\nwords with that change; the new change is tested and judged, committed on the same branch, and waits again.",
    flag: 'comment',
    words: '  --comment TEXT   what to change (required)',
  },
  reject: {
    usage: 'taskloop reject ID --reason TEXT [--round N] [--as NAME]',
    what: 'Rejects the change that waits: the task ends FAILED (rejected_by_reviewer); its branch keeps the change.',
    flag: 'reason',
    words: '  --reason TEXT    why (required)',
  },
};

function answerCommand(kind: ApprovalAnswerKind, summary: string): Command {
  const text = texts[kind];
  return {
    summary,
    help: `Usage: ${text.usage}\n\n${text.what}\n\n${text.words}\n${common}`,
    async run(argv) {
      const { values, positionals } = parseFlags(
        kind,
        argv,
        { [text.flag]: { type: 'string' }, round: { type: 'string' }, as: { type: 'string' } },
        true,
      );
      const ref = takeTaskRef(kind, positionals);
      const words = values[text.flag] as string | undefined;
      if (kind !== 'approve' && !words?.trim())
        throw new UsageError(
          `taskloop ${kind}: --${text.flag} is required; e.g. taskloop ${kind} ${ref} --${text.flag} "…"`,
        );
      refuseSecretsInHint(words, process.env, `--${text.flag}`);
      const round = parseRound(kind, values.round as string | undefined);
      const author = answerAuthor(values.as as string | undefined, process.env);
      const accepted = await withTaskClient(async ({ client }) => {
        const task = await resolveTask(client, kind, ref);
        const closed = task.description.status.name;
        if (closed !== 'RUNNING')
          throw new WorkFailed(
            `taskloop ${kind}: ${task.handle.workflowId} has closed (${closed}): nothing of it awaits approval; taskloop status ${task.handle.workflowId} shows how it ended`,
          );
        return { id: task.handle.workflowId, ...(await answerTask(task, kind, { round, author, [text.flag]: words })) };
      });
      console.log(`${kind} taken: ${accepted.id}, round ${accepted.round}, by ${author}`);
      console.log(`follow it:  taskloop status ${accepted.id}`);
      return 0;
    },
  };
}

function parseRound(kind: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text.trim()))
    throw new UsageError(`taskloop ${kind}: --round must be a round number (1, 2, …), got ${JSON.stringify(text)}`);
  return Number(text);
}

export const approveCommand = answerCommand('approve', 'approve a change that awaits approval');
export const requestChangesCommand = answerCommand(
  'request-changes',
  'ask for changes to a change that awaits approval (a new round, told your comment)',
);
export const rejectCommand = answerCommand('reject', 'reject a change that awaits approval (FAILED, the branch kept)');
