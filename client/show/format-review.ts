// `taskloop show`'s review rounds (domain/trajectory/review-rounds.ts), as text lines and as the page's section: per
// round the reviewer's words that started it, the attempts that followed with their verdicts, the commit that
// waited, and the answer; the final word first.
import type { ApprovalAnswer } from '../../domain/approval.js';
import { isoSeconds, type ReviewTrajectory, type RoundTrajectory } from '../../domain/trajectory/review-rounds.js';

const answerNames = {
  approve: 'approved',
  'request-changes': 'changes requested',
  reject: 'rejected',
  'timed-out': 'no answer: timed out',
} as const;

function answerText(answer: ApprovalAnswer): string {
  const who = answer.kind === 'timed-out' ? '' : ` by ${answer.author}`;
  return `${answerNames[answer.kind]}${who} at ${isoSeconds(answer.at)}${answer.text ? `: ${answer.text}` : ''}`;
}

/** A round as lines: its head (with the words that started it), its attempts, its commit and its answer. */
function roundLines(round: RoundTrajectory): string[] {
  const asked = round.askedFor
    ? `, asked for by ${round.askedFor.author} at ${isoSeconds(round.askedFor.at)}: "${round.askedFor.comment}"`
    : '';
  const lines = [`round ${round.round}${asked}`];
  for (const attempt of round.attempts)
    lines.push(`  attempt ${attempt.attempt}: ${attempt.status} (${attempt.verdict})`);
  if (round.attempts.length === 0) lines.push('  no attempt yet');
  if (round.commit)
    lines.push(
      `  commit ${round.commit.sha.slice(0, 12)} on ${round.commit.branch}, waiting from ${isoSeconds(round.commit.waitingSince)}`,
    );
  if (round.answer) lines.push(`  answer: ${answerText(round.answer)}`);
  return lines;
}

/** The review as text lines: `review: <final word>`, then each round indented. */
export function formatReviewRounds(review: ReviewTrajectory): string[] {
  return [`review: ${review.final}`, ...review.rounds.flatMap(roundLines).map((line) => `  ${line}`)];
}

/** The review as the page's section (the caller's escape function keeps it self-contained and safe). */
export function renderReviewRounds(review: ReviewTrajectory, escape: (text: string) => string): string {
  const rounds = review.rounds.map((round) => {
    const [head = '', ...rest] = roundLines(round);
    return `<li>${escape(head)}<ul>${rest.map((line) => `<li>${escape(line.trim())}</li>`).join('')}</ul></li>`;
  });
  return `<h3>review: ${escape(review.final)}</h3><ul class="rounds">${rounds.join('\n')}</ul>`;
}
