import { describe, expect, it } from 'vitest';
import { recordAnswer, refuseAnswer, roundStartOf, type ReviewState } from '../../../domain/approval.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';

const round = (n: number, answer?: ReviewState['rounds'][number]['answer']) => ({
  round: n,
  sha: `${n}`.repeat(40),
  branch: 'taskloop/fix-1',
  waitingSince: '2026-01-01T00:00:00.000Z',
  timeoutAt: '2026-01-08T00:00:00.000Z',
  ...(answer && { answer }),
});
const asked = { kind: 'request-changes' as const, text: 'add a docstring', author: 'ana', at: 'x' };
const waitingOn2 = {
  taskId: 'fix-1',
  status: 'AWAITING_APPROVAL',
  phase: 'waiting',
  review: { baseSha: 'b'.repeat(40), rounds: [round(1, asked), round(2)] },
};

describe('refuseAnswer', () => {
  it('takes an answer that names the waiting round, or none', () => {
    expect(refuseAnswer(waitingOn2, 'approve', { round: 2 })).toBeUndefined();
    expect(refuseAnswer(waitingOn2, 'approve', undefined)).toBeUndefined();
  });

  it('refuses a comment or reason longer than a goal may be, taking one of exactly that length', () => {
    const fits = 'x'.repeat(20_000);
    expect(refuseAnswer(waitingOn2, 'request-changes', { comment: fits })).toBeUndefined();
    expect(refuseAnswer(waitingOn2, 'request-changes', { comment: `${fits}x` })).toMatch(
      /^task fix-1: the request-changes's comment is 20001 characters; at most 20000 are taken .*shorten it/,
    );
    expect(refuseAnswer(waitingOn2, 'reject', { reason: 'y'.repeat(60_000) })).toMatch(/reject's reason is 60000/);
  });

  it('refuses a task that does not wait, naming its state', () => {
    const running = { ...waitingOn2, status: 'RUNNING', phase: 'code' };
    expect(refuseAnswer(running, 'approve', {})).toBe(
      'task fix-1 is RUNNING (phase code, after 2 review round(s)), not AWAITING_APPROVAL: approve is accepted only while it waits for approval',
    );
  });

  it('refuses a stale answer, naming the round that waits', () => {
    expect(refuseAnswer(waitingOn2, 'reject', { round: 1, reason: 'no' })).toMatch(
      /^task fix-1 waits for approval of round 2 \(commit 222222222222\), and this reject names round 1, an earlier round/,
    );
  });

  it('refuses request-changes without a comment and reject without a reason', () => {
    expect(refuseAnswer(waitingOn2, 'request-changes', { comment: '  ' })).toMatch(/needs a comment/);
    expect(refuseAnswer(waitingOn2, 'reject', {})).toMatch(/needs a reason/);
  });
});

describe('rounds', () => {
  it('starts the next round from the change a person asked to change, with their words', () => {
    expect(roundStartOf({ baseSha: 'b', rounds: [round(1, asked)] })).toEqual({
      round: 2,
      sha: '1'.repeat(40),
      branch: 'taskloop/fix-1',
      baseSha: 'b',
      comment: 'add a docstring',
      author: 'ana',
    });
    expect(roundStartOf({ rounds: [round(1)] })).toBeUndefined();
    expect(roundStartOf(undefined)).toBeUndefined();
  });

  it('records an answer with its author, or unknown when none is named', () => {
    expect(recordAnswer('reject', { reason: ' wrong ', author: 'ana' }, 't')).toEqual({
      kind: 'reject',
      text: 'wrong',
      author: 'ana',
      at: 't',
    });
    expect(recordAnswer('approve', {}, 't')).toEqual({ kind: 'approve', author: 'unknown', at: 't' });
  });

  it('is a task field: required or none, with a timeout', () => {
    const base = { id: 'a', repo: '/r', goal: 'g', models: { coder: 'scripted:x.json' } };
    const parsed = parseTaskSpec({ ...base, approval: 'maybe' });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error).toMatch(/^approval: .*"required".*"none"/);
    const ok = parseTaskSpec({ ...base, approval: 'required', approvalTimeoutMs: 3_600_000 });
    expect(ok.success && ok.data.approval).toBe('required');
  });
});
