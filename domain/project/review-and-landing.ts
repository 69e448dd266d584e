// What a project's report says of review and landing: what landed (task, branch, commit, when), and what waits for
// whom and for how long (a person's approval since a round began to wait; a branch's landing queue, at which
// position, since the change was queued). Pure: built from each task's record, read by the client.
import { waitingRound, type ReviewState } from '../approval.js';
import type { TaskLanding } from '../landing.js';

/** What the report reads of one task: its status, review and landing (its state while it runs, else its outcome). */
export interface TaskReviewRecord {
  taskId: string;
  workflowId: string;
  status: string;
  review?: ReviewState;
  landing?: TaskLanding;
}

/** A branch's queue as its lander's state query answers: the change in hand, then the ones that wait in order. */
export interface LandingQueueView {
  current?: { taskId: string; step: string };
  waiting: { taskId: string }[];
}

export interface LandedChange {
  taskId: string;
  target: string;
  commit: string;
  /** ISO time the lander answered. */
  at: string;
}

export interface WaitingChange {
  taskId: string;
  workflowId: string;
  /** `a person` (approval of a round) or `the landing queue of BRANCH`. */
  waitsFor: string;
  /** The round that waits, or where the change stands in its queue. */
  where: string;
  since: string;
  waitedMs: number;
  /** The command that ends the wait, where a person ends it. */
  answer?: string;
}

export interface ReviewAndLanding {
  landed: LandedChange[];
  waiting: WaitingChange[];
}

/** The report's lists from the tasks' records; `queues` by lander workflow id; `now` (epoch ms) measures the waits. */
export function reviewAndLanding(
  tasks: readonly TaskReviewRecord[],
  queues: ReadonlyMap<string, LandingQueueView>,
  now: number,
): ReviewAndLanding {
  const landed: LandedChange[] = [];
  const waiting: WaitingChange[] = [];
  const waited = (since: string) => Math.max(0, now - Date.parse(since));
  for (const task of tasks) {
    const { landing } = task;
    if (landing?.status === 'landed')
      landed.push({ taskId: task.taskId, target: landing.target, commit: landing.landed, at: landing.answeredAt });
    const round = task.status === 'AWAITING_APPROVAL' ? waitingRound(task.review) : undefined;
    if (round)
      waiting.push({
        taskId: task.taskId,
        workflowId: task.workflowId,
        waitsFor: 'a person',
        where: `approval of round ${round.round} (${round.sha.slice(0, 12)})`,
        since: round.waitingSince,
        waitedMs: waited(round.waitingSince),
        answer: `taskloop approve ${task.workflowId} (or request-changes, reject; taskloop review)`,
      });
    if (landing?.status === 'queued' && task.status === 'RUNNING')
      waiting.push({
        taskId: task.taskId,
        workflowId: task.workflowId,
        waitsFor: `the landing queue of ${landing.target}`,
        where: queuePlace(task.taskId, queues.get(landing.lander)),
        since: landing.queuedAt,
        waitedMs: waited(landing.queuedAt),
      });
  }
  landed.sort((a, b) => a.at.localeCompare(b.at));
  waiting.sort((a, b) => a.since.localeCompare(b.since));
  return { landed, waiting };
}

/** `landing now (test)`, `position 2 of 3`, or `queued` when the queue could not be read. */
function queuePlace(taskId: string, queue: LandingQueueView | undefined): string {
  if (!queue) return 'queued';
  if (queue.current?.taskId === taskId) return `landing now (${queue.current.step})`;
  const index = queue.waiting.findIndex((change) => change.taskId === taskId);
  const ahead = queue.current ? 1 : 0;
  const total = queue.waiting.length + ahead;
  return index < 0 ? 'queued' : `position ${index + 1 + ahead} of ${total}`;
}

/** A wait as a person reads it: `45 s`, `3 min 5 s`, `2 h 4 min`, `1 d 3 h`. */
export function waitText(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}
