// What `taskloop review` shows of one waiting task: the goal, the tests that ran, the verdicts, the earlier rounds
// and the diff a person is asked to approve (from the task's base to the round's commit).
import { execa } from 'execa';
import type { WaitingTask } from './waiting-tasks.js';

/** The diff of the round's commit from the base the first round started at; a note when the repository has neither. */
export async function roundDiff(task: WaitingTask): Promise<string> {
  const base = task.state.review?.baseSha ?? `${task.round.sha}^`;
  const result = await execa(
    'git',
    ['-C', task.repo, 'diff', '--no-ext-diff', '--stat', '--patch', base, task.round.sha],
    {
      reject: false,
      env: { GIT_PAGER: 'cat' },
    },
  );
  return result.exitCode === 0
    ? result.stdout
    : `(no diff here: ${task.repo} does not hold ${task.round.sha.slice(0, 12)}; fetch branch ${task.round.branch})`;
}

export function formatReviewPage(task: WaitingTask, diff: string): string {
  const { state, round } = task;
  const last = state.attempts.at(-1);
  const lines = [
    `${task.workflowId} (project ${task.project}): round ${round.round} awaits approval since ${round.waitingSince}`,
    `commit ${round.sha} on ${round.branch} (until ${round.timeoutAt})`,
    '',
    'goal:',
    ...state.goal
      .trim()
      .split('\n')
      .map((line) => `  ${line}`),
    '',
  ];
  const counts = last?.test?.counts;
  lines.push(
    counts
      ? `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.errors} errors, ${counts.skipped} skipped of ${counts.total}`
      : 'tests: none recorded',
    ...(last?.test?.cases ?? []).slice(0, 20).map((test) => `  ${test.outcome.padEnd(7)} ${test.id}`),
    `review: ${last?.review?.passed ? 'passed' : 'failed'}${findings(last?.review?.findings)}`,
    `judge: ${last?.judge?.passed ? 'passed' : 'failed'}${findings(last?.judge?.findings)}`,
    ...(last?.judge?.evidence ?? []).map((line) => `  ${line}`),
  );
  for (const earlier of state.review?.rounds.slice(0, -1) ?? [])
    lines.push(
      `round ${earlier.round} (${earlier.sha.slice(0, 12)}): ${earlier.answer?.kind ?? 'unanswered'} by ${earlier.answer?.author ?? '-'}${earlier.answer?.text ? `: ${earlier.answer.text}` : ''}`,
    );
  lines.push('', diff, '');
  return lines.join('\n');
}

function findings(list: { rule: string; message: string }[] | undefined): string {
  return list && list.length > 0 ? `: ${list.map((finding) => `[${finding.rule}] ${finding.message}`).join('; ')}` : '';
}
