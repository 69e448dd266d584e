// Approval, a judge a person plays (domain/approval.ts): after the commit a task with `approval: required` waits in
// the workflow (a condition with a timeout: no activity, so no worker slot, and durable across worker and server
// restarts) for one of three validated Updates: approve, request changes (a new round), reject.
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import {
  recordAnswer,
  refuseAnswer,
  waitingRound,
  type ApprovalAnswerKind,
  type ApprovalRequest,
  type ReviewRound,
} from '../../domain/approval.js';
import type { FailureClass } from '../../domain/failure-class.js';
import type { CommitResult } from '../../domain/records.js';
import { approveUpdate, rejectUpdate, requestChangesUpdate } from '../messages.js';
import type { TaskRun } from './task-run.js';

export type ApprovalDecision =
  | { kind: 'approved' }
  | { kind: 'changes-requested' }
  | { kind: 'ended'; status: 'FAILED' | 'CANCELLED'; reason: string; recommendation?: FailureClass };

const answerEvents = {
  approve: 'APPROVED',
  'request-changes': 'CHANGES_REQUESTED',
  reject: 'REJECTED',
} as const satisfies Record<ApprovalAnswerKind, string>;

/** The three answers, each validated before it is accepted (a refused one leaves no trace in the history). */
export function registerApprovalHandlers(run: TaskRun): void {
  const updates = { approve: approveUpdate, 'request-changes': requestChangesUpdate, reject: rejectUpdate } as const;
  for (const kind of Object.keys(updates) as ApprovalAnswerKind[]) {
    setHandler(updates[kind], (request?: ApprovalRequest) => takeAnswer(run, kind, request), {
      validator: (request?: ApprovalRequest) => {
        const refused = refuseAnswer(run.state, kind, request);
        if (refused) throw ApplicationFailure.nonRetryable(refused, 'AnswerRefused');
      },
    });
  }
}

/** Records the answer on the waiting round; a second answer taken in the same workflow task is refused here. */
function takeAnswer(run: TaskRun, kind: ApprovalAnswerKind, request: ApprovalRequest | undefined) {
  const refused = refuseAnswer(run.state, kind, request);
  const round = waitingRound(run.state.review);
  if (refused || !round) throw ApplicationFailure.nonRetryable(refused ?? 'no round waits', 'AnswerRefused');
  round.answer = recordAnswer(kind, request, new Date().toISOString());
  run.emit(answerEvents[kind], {
    round: round.round,
    sha: round.sha,
    branch: round.branch,
    author: round.answer.author,
    ...(round.answer.text !== undefined && { [kind === 'reject' ? 'reason' : 'comment']: round.answer.text }),
  });
  // Shown at once; the wait ends in the workflow task that follows.
  run.setStatus('RUNNING');
  run.flushSearchAttributes();
  return { round: round.round, kind };
}

/** Waits for a person's answer on the change just committed (a new round); the branch keeps it whatever they say. */
export async function awaitApproval(run: TaskRun, commit: CommitResult): Promise<ApprovalDecision> {
  const review = (run.state.review ??= { rounds: [] });
  // The diff a person reads is from the base the first round started at, whichever round they read.
  review.baseSha ??= run.currentAttempt.baseSha;
  const timeoutMs = run.spec.approvalTimeoutMs;
  const now = Date.now();
  const round: ReviewRound = {
    round: review.rounds.length + 1,
    sha: commit.sha,
    branch: commit.branch,
    waitingSince: new Date(now).toISOString(),
    timeoutAt: new Date(now + timeoutMs).toISOString(),
  };
  review.rounds.push(round);
  run.setPhase('waiting');
  run.setStatus('AWAITING_APPROVAL');
  run.emit('APPROVAL_REQUESTED', { round: round.round, sha: round.sha, branch: round.branch, until: round.timeoutAt });
  await run.flush();
  await condition(() => round.answer !== undefined || run.cancelRequested, timeoutMs);
  if (!round.answer && run.cancelRequested)
    return { kind: 'ended', status: 'CANCELLED', reason: run.cancelReason ?? 'cancelled while awaiting approval' };
  if (!round.answer) return timedOut(run, round, timeoutMs);
  if (round.answer.kind === 'approve') return { kind: 'approved' };
  if (round.answer.kind === 'request-changes') return { kind: 'changes-requested' };
  const reason = `rejected by ${round.answer.author} in review round ${round.round}: ${round.answer.text ?? '(no reason)'}; the change stays on branch ${round.branch} (${round.sha.slice(0, 12)})`;
  return ended(run, 'RejectedByReviewer', 'rejected_by_reviewer', reason);
}

function timedOut(run: TaskRun, round: ReviewRound, timeoutMs: number): ApprovalDecision {
  round.answer = { kind: 'timed-out', author: 'taskloop', at: new Date().toISOString() };
  run.emit('APPROVAL_TIMED_OUT', { round: round.round, sha: round.sha, branch: round.branch });
  const days = timeoutMs / 86_400_000;
  const waited = days >= 1 ? `${Math.round(days * 10) / 10} day(s)` : `${Math.round(timeoutMs / 1000)} s`;
  const reason = `no answer to review round ${round.round} within approvalTimeout (${waited}); the change stays on branch ${round.branch} (${round.sha.slice(0, 12)})`;
  return ended(run, 'ApprovalTimedOut', 'approval_timed_out', reason);
}

/** A person's last word (or its absence) ends the task FAILED with its own class, shown like any failure. */
function ended(
  run: TaskRun,
  kind: 'RejectedByReviewer' | 'ApprovalTimedOut',
  failureClass: FailureClass,
  reason: string,
): ApprovalDecision {
  run.state.lastFailure = { node: 'judge', failureClass, reason, cause: { kind, message: reason } };
  return { kind: 'ended', status: 'FAILED', reason, recommendation: failureClass };
}
