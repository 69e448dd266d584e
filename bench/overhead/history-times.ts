// Where a task's time went, read from its workflow history (event timestamps), without touching workflow code.
import { activitiesIn, type HistoryEvent } from '../../test/support/history-activities.js';

export type { HistoryEvent };
type Timestamp = HistoryEvent['eventTime'];

export interface HistoryTimes {
  /** WorkflowExecutionStarted -> closed, as the server saw it. */
  workflowMs: number;
  /**
   * Per activity type: summed time from scheduled to completed (includes queueing on the task queue); a local activity
   * (the claim) as `<type> (local, with its workflow task)`: the workflow task it ran in, started to completed. (Its
   * marker's own schedule and completion times do not time it: they read 1 to 6 ms, or below 0, for a claim that
   * took 14 to 17 ms by marks in the worker.)
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
  const locals = new Map(activitiesIn(events).flatMap(({ local, index, type }) => (local ? [[index, type]] : [])));
  let started: number | undefined;
  let closed: number | undefined;
  let workflowTaskStarted = 0;
  let workflowTaskMs = 0;
  for (const [index, event] of events.entries()) {
    const at = toMs(event.eventTime);
    if (event.workflowTaskStartedEventAttributes) workflowTaskStarted = at;
    if (event.workflowTaskCompletedEventAttributes) workflowTaskMs = at - workflowTaskStarted;
    // A local activity's marker follows the completion of the workflow task it ran in.
    const local = locals.get(index);
    if (local) {
      const type = `${local} (local, with its workflow task)`;
      activityMs.set(type, (activityMs.get(type) ?? 0) + workflowTaskMs);
      activityCalls.set(type, (activityCalls.get(type) ?? 0) + 1);
    }
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
  if (started === undefined || closed === undefined)
    throw new Error('the workflow history has no start or no close event; was the task finished?');
  return { workflowMs: closed - started, activityMs, activityCalls };
}
