// The review rounds `taskloop show` tells, for the states a real run rarely stops in: a round waiting, a wait that
// timed out, a round asked for whose attempt runs, and one whose attempts all failed. (A full request-changes →
// approve flow and a reject are checked on real records: test/integration/cli-approval.test.ts, approval.test.ts.)
import { describe, expect, it } from 'vitest';
import type { ReviewState } from '../../../../domain/approval.js';
import type { AttemptRecord } from '../../../../domain/task-state.js';
import { reviewTrajectory } from '../../../../domain/trajectory/review-rounds.js';
import { formatReviewRounds } from '../../../../client/show/format-review.js';

const attempt = (n: number, round?: number, failed?: boolean): AttemptRecord =>
  ({
    attempt: n,
    status: failed ? 'FAILED' : 'PASSED',
    startedAt: '2026-12-07T10:00:00.000Z',
    envRetries: 0,
    ...(round && { round }),
    ...(failed && { failure: { node: 'test', failureClass: 'tests_failing', reason: '1 failed' } }),
  }) as AttemptRecord;

const round1 = {
  round: 1,
  sha: 'a'.repeat(40),
  branch: 'taskloop/fix',
  waitingSince: '2026-12-07T10:01:00.123Z',
  timeoutAt: '2026-12-14T10:01:00.123Z',
};

describe('review rounds as show tells them', () => {
  it('a round that waits names since when and until when', () => {
    const review = reviewTrajectory({ rounds: [round1] }, [attempt(1)], 'AWAITING_APPROVAL');
    expect(review?.final).toBe(
      'round 1 waits for an answer since 2026-12-07T10:01:00Z (until 2026-12-14T10:01:00Z): taskloop review',
    );
    expect(formatReviewRounds(review!)).toEqual([
      'review: round 1 waits for an answer since 2026-12-07T10:01:00Z (until 2026-12-14T10:01:00Z): taskloop review',
      '  round 1',
      '    attempt 1: PASSED (no verdict yet)',
      `    commit aaaaaaaaaaaa on taskloop/fix, waiting from 2026-12-07T10:01:00Z`,
    ]);
  });

  it('a wait that timed out says so, with the branch that keeps the change', () => {
    const review: ReviewState = {
      rounds: [{ ...round1, answer: { kind: 'timed-out', author: 'taskloop', at: '2026-12-14T10:01:00.123Z' } }],
    };
    const told = reviewTrajectory(review, [attempt(1)], 'FAILED');
    expect(told?.final).toBe(
      'no answer: the wait timed out at 2026-12-14T10:01:00Z (round 1), the change kept on taskloop/fix',
    );
    expect(formatReviewRounds(told!)).toContain('    answer: no answer: timed out at 2026-12-14T10:01:00Z');
  });

  it('a request for changes opens the next round at once, told with its words, before its attempt is recorded', () => {
    const answer = { kind: 'request-changes' as const, author: 'ana', at: '2026-12-07T11:00:00Z', text: 'rename it' };
    const review: ReviewState = { rounds: [{ ...round1, answer }] };
    const running = reviewTrajectory(review, [attempt(1)], 'RUNNING');
    expect(running?.final).toBe('round 2 runs: no change to read yet');
    expect(formatReviewRounds(running!).slice(-2)).toEqual([
      '  round 2, asked for by ana at 2026-12-07T11:00:00Z: "rename it"',
      '    no attempt yet',
    ]);
    const failed = reviewTrajectory(review, [attempt(1), attempt(2, 2, true), attempt(3, 2, true)], 'FAILED');
    expect(failed?.final).toBe('round 2 made no change to read: the task is FAILED');
    expect(failed?.rounds[1]?.attempts.map((a) => `${a.attempt}: ${a.verdict}`)).toEqual([
      '2: failed at test (tests_failing): 1 failed',
      '3: failed at test (tests_failing): 1 failed',
    ]);
  });

  it('a task that never waited for a person has no review rounds', () => {
    expect(reviewTrajectory(undefined, [attempt(1)], 'COMPLETED')).toBeUndefined();
  });
});
