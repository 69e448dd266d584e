// `taskloop review`: goes through the tasks that wait for a person (by project, oldest first): each one's goal,
// tests, verdicts and diff through the pager, then approve / request changes / reject / skip.
import { execa } from 'execa';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import type { ApprovalAnswerKind } from '../../domain/approval.js';
import { parseFlags } from '../args.js';
import { WorkFailed } from '../cli-errors.js';
import { answerAuthor, answerTask } from '../review/answer-task.js';
import { formatReviewPage, roundDiff } from '../review/review-page.js';
import { listWaitingTasks, type WaitingTask } from '../review/waiting-tasks.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop review [--project P] [--as NAME] [--json]

Goes through the tasks that await approval, by project, oldest wait first. For each it shows the goal, the tests
that ran, the verdicts and the diff (through $PAGER, \`less -R\` by default; plain when not a terminal), then asks:
  a  approve            r  request changes (the comment from $EDITOR, or a prompt)
  j  reject (a reason)  s  skip                q  quit
Each answer names the round shown: one that no longer waits is refused, with the reason (docs/review-and-land.md).

  --project P   only this project's tasks
  --as NAME     who answers (default: TASKLOOP_USER, else USER)
  --json        list the waiting tasks for scripts: [{workflowId, taskId, project, goal, round, sha, branch,
                waitingSince, timeoutAt}]; asks nothing

Exit codes: 0 done (every task answered or skipped), 1 an answer was refused, 2 bad usage.`;

export const reviewCommand: Command = {
  summary: 'go through the changes that await approval: diff, tests, verdicts; approve, request changes or reject',
  help,
  async run(argv) {
    const { values } = parseFlags('review', argv, {
      project: { type: 'string' },
      as: { type: 'string' },
      json: { type: 'boolean' },
    });
    return withTaskClient(async ({ client }) => {
      const tasks = await listWaitingTasks(client, values.project);
      if (values.json) {
        console.log(JSON.stringify(tasks.map(jsonRow), null, 2));
        return 0;
      }
      if (tasks.length === 0) {
        console.log('nothing awaits approval');
        return 0;
      }
      const author = answerAuthor(values.as, process.env);
      const prompt = createInterface({ input: process.stdin, output: process.stdout });
      try {
        let refused = 0;
        for (const [index, task] of tasks.entries()) {
          await showTask(task);
          const answered = await askAndAnswer(prompt, task, author, `${index + 1} of ${tasks.length}`);
          if (answered === 'quit') break;
          if (answered === 'refused') refused += 1;
        }
        return refused > 0 ? 1 : 0;
      } finally {
        prompt.close();
      }
    });
  },
};

function jsonRow({ workflowId, taskId, project, goal, round }: WaitingTask) {
  const { sha, branch, waitingSince, timeoutAt } = round;
  return { workflowId, taskId, project, goal, round: round.round, sha, branch, waitingSince, timeoutAt };
}

/** The page through the user's pager on a terminal, plain otherwise. */
async function showTask(task: WaitingTask): Promise<void> {
  const page = formatReviewPage(task, await roundDiff(task));
  if (!process.stdout.isTTY) {
    console.log(page);
    return;
  }
  const pager = process.env.PAGER?.trim() || 'less -R';
  await execa(pager, { shell: true, input: page, stdout: 'inherit', stderr: 'inherit', reject: false });
}

const choices: Record<string, ApprovalAnswerKind | 'skip' | 'quit'> = {
  a: 'approve',
  r: 'request-changes',
  j: 'reject',
  s: 'skip',
  q: 'quit',
};

async function askAndAnswer(
  prompt: Interface,
  task: WaitingTask,
  author: string,
  position: string,
): Promise<'answered' | 'skip' | 'quit' | 'refused'> {
  for (;;) {
    const key = (
      await prompt.question(
        `${position} ${task.workflowId} round ${task.round.round}: [a]pprove, [r]equest changes, re[j]ect, [s]kip, [q]uit? `,
      )
    )
      .trim()
      .toLowerCase();
    const choice = choices[key];
    if (!choice) continue;
    if (choice === 'skip' || choice === 'quit') return choice;
    const words = choice === 'approve' ? undefined : await askWords(prompt, choice);
    if (choice !== 'approve' && !words) {
      console.log(`nothing sent: ${choice} needs ${choice === 'reject' ? 'a reason' : 'a comment'}`);
      continue;
    }
    const request = {
      round: task.round.round,
      author,
      ...(choice === 'reject' ? { reason: words } : { comment: words }),
    };
    try {
      await answerTask(task, choice, request);
      console.log(`${choice} taken: ${task.workflowId}, round ${task.round.round}, by ${author}`);
      return 'answered';
    } catch (error) {
      if (!(error instanceof WorkFailed)) throw error;
      console.log(error.message);
      return 'refused';
    }
  }
}

/** The comment or reason: from $EDITOR when one is set (a file to write it in), else one line at the prompt. */
async function askWords(prompt: Interface, choice: ApprovalAnswerKind): Promise<string | undefined> {
  const editor = process.env.VISUAL?.trim() || process.env.EDITOR?.trim();
  if (!editor || !process.stdin.isTTY)
    return (await prompt.question(choice === 'reject' ? 'reason: ' : 'comment: ')).trim() || undefined;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-review-'));
  const file = path.join(dir, choice === 'reject' ? 'REASON' : 'COMMENT');
  try {
    prompt.pause();
    await execa(`${editor} ${JSON.stringify(file)}`, { shell: true, stdio: 'inherit', reject: false });
    prompt.resume();
    const text = await readFile(file, 'utf8').catch(() => '');
    return text.trim() || undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
