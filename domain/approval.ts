// Approval, a judge a person plays: after the commit a task with `approval: required` waits for a person's answer on
// each round's change. The rules of rounds and answers live here; the wait itself is the workflow's
// (workflows/task/approval.ts).
import { personTextTooLong } from './payload-bounds.js';

/** `required`: the task waits for a person after its commit; `none` (the default): it completes at its commit. */
export const approvalModes = ['required', 'none'] as const;
export type ApprovalMode = (typeof approvalModes)[number];

/** How long a task waits for an answer before it fails (`approval_timed_out`), the branch kept: 7 days. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 7 * 86_400_000;

/** What a person may answer, as the Update names them (`temporal workflow update execute --name ...`). */
export const approvalAnswerKinds = ['approve', 'request-changes', 'reject'] as const;
export type ApprovalAnswerKind = (typeof approvalAnswerKinds)[number];

/** One answer as sent: by `taskloop approve|request-changes|reject`, `taskloop review` or `temporal`. */
export interface ApprovalRequest {
  /** The round the person read; an answer naming another round (a stale one) is refused. Absent: the current one. */
  round?: number;
  /** The reviewer's words: the coder is told them on request-changes (required there); a note on approve. */
  comment?: string;
  /** Why the change is rejected (required on reject). */
  reason?: string;
  /** Who answers; absent (a bare `temporal` call): recorded as `unknown`. */
  author?: string;
}

/** An answer as the task records it. */
export interface ApprovalAnswer {
  kind: ApprovalAnswerKind | 'timed-out';
  /** The comment, or the reason of a reject. */
  text?: string;
  author: string;
  /** ISO time the task took the answer (workflow time). */
  at: string;
}

/** One round: a change committed on the task's branch that waits for (or got) a person's answer. */
export interface ReviewRound {
  round: number;
  sha: string;
  branch: string;
  /** ISO time the wait began. */
  waitingSince: string;
  /** ISO time an unanswered wait ends. */
  timeoutAt: string;
  answer?: ApprovalAnswer;
}

/** The task's review: its rounds, the first one's base (the diff a person reads is base..round's commit). */
export interface ReviewState {
  baseSha?: string;
  rounds: ReviewRound[];
}

/** Where the next attempt starts: the change a person asked to change, told with their words. */
export interface RoundStart {
  /** The round the new attempts belong to. */
  round: number;
  sha: string;
  branch: string;
  baseSha?: string;
  comment: string;
  author: string;
}

/** The round the next attempt starts from, when the last answer asked for changes; undefined otherwise. */
export function roundStartOf(review: ReviewState | undefined): RoundStart | undefined {
  const last = review?.rounds.at(-1);
  if (!last || last.answer?.kind !== 'request-changes') return undefined;
  return {
    round: last.round + 1,
    sha: last.sha,
    branch: last.branch,
    baseSha: review?.baseSha,
    comment: last.answer.text ?? '',
    author: last.answer.author,
  };
}

/** The round that waits for an answer, if one does. */
export function waitingRound(review: ReviewState | undefined): ReviewRound | undefined {
  const last = review?.rounds.at(-1);
  return last && !last.answer ? last : undefined;
}

/**
 * Why an answer is refused before it is accepted (the Update's validator), or undefined when it is taken: the task
 * must wait for approval, the answer must name the waiting round when it names one, and carry the words it needs.
 */
export function refuseAnswer(
  task: { taskId: string; status: string; phase: string; review?: ReviewState },
  kind: ApprovalAnswerKind,
  request: ApprovalRequest | undefined,
): string | undefined {
  const waiting = task.status === 'AWAITING_APPROVAL' ? waitingRound(task.review) : undefined;
  if (!waiting) {
    const rounds = task.review?.rounds.length ?? 0;
    const where = rounds > 0 ? `, after ${rounds} review round(s)` : '';
    return `task ${task.taskId} is ${task.status} (phase ${task.phase}${where}), not AWAITING_APPROVAL: ${kind} is accepted only while it waits for approval`;
  }
  if (request?.round !== undefined && request.round !== waiting.round) {
    const which = request.round < waiting.round ? 'an earlier round' : 'a round that does not exist yet';
    return `task ${task.taskId} waits for approval of round ${waiting.round} (commit ${waiting.sha.slice(0, 12)}), and this ${kind} names round ${request.round}, ${which}: read round ${waiting.round}'s change (taskloop review, or taskloop show ${task.taskId}) and answer again`;
  }
  const tooLong =
    personTextTooLong(`the ${kind}'s comment`, request?.comment) ??
    personTextTooLong(`the ${kind}'s reason`, request?.reason);
  if (tooLong) return `task ${task.taskId}: ${tooLong}`;
  if (kind === 'request-changes' && !request?.comment?.trim())
    return `request-changes on task ${task.taskId} needs a comment: the coder is told it (--comment "what to change")`;
  if (kind === 'reject' && !request?.reason?.trim())
    return `reject on task ${task.taskId} needs a reason: it is recorded with the failure (--reason "why")`;
  return undefined;
}

/** The answer as recorded: the comment or reason, the author (or `unknown`), the time it was taken. */
export function recordAnswer(kind: ApprovalAnswerKind, request: ApprovalRequest | undefined, at: string) {
  const text = (kind === 'reject' ? request?.reason : request?.comment)?.trim();
  const author = request?.author?.trim() || 'unknown';
  return { kind, author, at, ...(text ? { text } : {}) } satisfies ApprovalAnswer;
}
