// Where a task's time went, read from its workflow history (event timestamps), without touching workflow code.
import { activitiesIn, type HistoryEvent } from '../../test/support/history-activities.js';

export type { HistoryEvent };
type Timestamp = HistoryEvent['eventTime'];

export interface HistoryTimes {
  /** WorkflowExecutionStarted -> closed, as the server saw it. */
  workflowMs: number;
  /**
   * Per activity type: summed time from scheduled to completed (includes queueing on the task queue); a local activity
   * (the claim) as `<type> (local)`, from its marker's schedule and completion times (within a workflow task).
   */
  activityMs: Map<string, number>;
  /** Per activity type: how many times it ran. */
  activityCalls: Map<string, number>;
}

function toMs(time: Timestamp): number {
  if (!time) throw new Error('a history event has no eventTime; cannot time the workflow');
  const seconds = time.seconds ?? 0;
  return (typeof seconds === 'number' ? seconds : seconds.toNumber()) * 1000 + (time.nanos ?? 0) / 1e6;
}

const idOf = (id: unknown) => String(id);

/** Sums activity durations by type and measures the workflow's own span from its history events. */
export function readHistoryTimes(events: HistoryEvent[]): HistoryTimes {
  const scheduled = new Map<string, { type: string; at: number }>();
  const activityMs = new Map<string, number>();
  const activityCalls = new Map<string, number>();
  let started: number | undefined;
  let closed: number | undefined;
  for (const event of events) {
    const at = toMs(event.eventTime);
    if (event.workflowExecutionStartedEventAttributes) started = at;
    if (event.workflowExecutionCompletedEventAttributes || event.workflowExecutionFailedEventAttributes) closed = at;
    const schedule = event.activityTaskScheduledEventAttributes;
    if (schedule) scheduled.set(idOf(event.eventId), { type: schedule.activityType?.name ?? 'unknown', at });
    const done = event.activityTaskCompletedEventAttributes;
    const from = done && scheduled.get(idOf(done.scheduledEventId));
    if (from) {
      activityMs.set(from.type, (activityMs.get(from.type) ?? 0) + (at - from.at));
      activityCalls.set(from.type, (activityCalls.get(from.type) ?? 0) + 1);
    }
  }
  for (const local of activitiesIn(events)) {
    if (!local.local || local.localMs === undefined) continue;
    const type = `${local.type} (local)`;
    activityMs.set(type, (activityMs.get(type) ?? 0) + local.localMs);
    activityCalls.set(type, (activityCalls.get(type) ?? 0) + 1);
  }
  if (started === undefined || closed === undefined)
    throw new Error('the workflow history has no start or no close event; was the task finished?');
  return { workflowMs: closed - started, activityMs, activityCalls };
}
