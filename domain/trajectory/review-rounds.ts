// A task's review rounds as `taskloop show` tells them: for each round, the reviewer's words that started it (round
// 2 onwards), the attempts that followed with their verdicts, the commit that waited, and the person's answer; then
// the final word (approved, rejected, timed out, or still waiting). Built from the record's `review.rounds` and each
// attempt's `round` (domain/approval.ts, workflows/task/approval.ts).
import type { ApprovalAnswer, ReviewState } from '../approval.js';
import type { AttemptRecord } from '../task-state.js';

/** One attempt of a round and what came of it. */
export interface RoundAttempt {
  attempt: number;
  status: string;
  /** `tests passed, review passed, judge passed`, or the failure's node and class. */
  verdict: string;
}

export interface RoundTrajectory {
  round: number;
  /** The request for changes that started this round (the answer to the round before); absent for round 1. */
  askedFor?: { author: string; at: string; comment: string };
  attempts: RoundAttempt[];
  /** The commit that waited for an answer; absent when the round's attempts made none (yet). */
  commit?: { sha: string; branch: string; waitingSince: string; timeoutAt: string };
  answer?: ApprovalAnswer;
}

export interface ReviewTrajectory {
  rounds: RoundTrajectory[];
  /** The last word: `approved by bo at ... (round 2)`, `rejected by ...`, `round 1 waits for an answer since ...`. */
  final: string;
}

/** Seconds are enough for a person: `2026-12-07T23:10:04Z`. */
export const isoSeconds = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');

/** The review rounds of a task with `approval: required`; undefined for a task that never waited for a person. */
export function reviewTrajectory(
  review: ReviewState | undefined,
  attempts: readonly AttemptRecord[],
  status: string,
): ReviewTrajectory | undefined {
  if (!review || review.rounds.length === 0) return undefined;
  // A request for changes opens the next round at once, before its first attempt is recorded.
  const asked = review.rounds.at(-1)?.answer?.kind === 'request-changes' ? 1 : 0;
  const lastRound = Math.max(review.rounds.length + asked, ...attempts.map((attempt) => attempt.round ?? 1));
  const rounds: RoundTrajectory[] = [];
  for (let round = 1; round <= lastRound; round++) {
    const waited = review.rounds[round - 1];
    const before = review.rounds[round - 2]?.answer;
    rounds.push({
      round,
      ...(before?.kind === 'request-changes' && {
        askedFor: { author: before.author, at: before.at, comment: before.text ?? '' },
      }),
      attempts: attempts.filter((attempt) => (attempt.round ?? 1) === round).map(roundAttempt),
      ...(waited && {
        commit: {
          sha: waited.sha,
          branch: waited.branch,
          waitingSince: waited.waitingSince,
          timeoutAt: waited.timeoutAt,
        },
      }),
      ...(waited?.answer && { answer: waited.answer }),
    });
  }
  return { rounds, final: finalWord(rounds, status) };
}

function roundAttempt(record: AttemptRecord): RoundAttempt {
  const verdict = record.failure
    ? `failed at ${record.failure.node} (${record.failure.failureClass}): ${record.failure.reason}`
    : [
        record.test && `tests ${record.test.outcome}`,
        record.review && `review ${record.review.passed ? 'passed' : 'rejected'}`,
        record.judge && `judge ${record.judge.passed ? 'passed' : 'rejected'}`,
      ]
        .filter(Boolean)
        .join(', ') || 'no verdict yet';
  return { attempt: record.attempt, status: record.status, verdict };
}

function finalWord(rounds: readonly RoundTrajectory[], status: string): string {
  const last = rounds.at(-1);
  if (!last) return 'no round';
  const answer = last.answer;
  const where = `(round ${last.round})`;
  if (answer?.kind === 'approve')
    return `approved by ${answer.author} at ${isoSeconds(answer.at)} ${where}${answer.text ? `: ${answer.text}` : ''}`;
  if (answer?.kind === 'reject')
    return `rejected by ${answer.author} at ${isoSeconds(answer.at)} ${where}: ${answer.text ?? '(no reason)'}`;
  if (answer?.kind === 'timed-out')
    return `no answer: the wait timed out at ${isoSeconds(answer.at)} ${where}, the change kept on ${last.commit?.branch ?? 'its branch'}`;
  if (last.commit && !answer) {
    const since = `since ${isoSeconds(last.commit.waitingSince)}`;
    return status === 'AWAITING_APPROVAL'
      ? `round ${last.round} waits for an answer ${since} (until ${isoSeconds(last.commit.timeoutAt)}): taskloop review`
      : `round ${last.round} waited ${since}, unanswered: the task is ${status}`;
  }
  // A round whose attempts have not made a change to read (yet): the request for changes is its last word so far.
  return status === 'RUNNING' || status === 'PENDING'
    ? `round ${last.round} runs: no change to read yet`
    : `round ${last.round} made no change to read: the task is ${status}`;
}
