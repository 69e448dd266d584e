// The activities a workflow history records, in order: a task-queue activity by its scheduled event, a local
// activity by its marker (the claim runs as one), whose data names its type and its times.
import type { WorkflowHandle } from '@temporalio/client';

// Typed through the client, so neither the tests nor the bench need a direct dependency on @temporalio/proto.
export type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

export interface HistoryActivity {
  type: string;
  local: boolean;
  /** Index of its scheduled event (task queue) or its marker (local) in the history. */
  index: number;
  /** A local activity's time from its first schedule to its completion, from the marker's data. */
  localMs?: number;
}

interface MarkerTime {
  seconds?: number;
  nanos?: number;
}
interface LocalActivityMarkerData {
  activity_type?: string;
  original_schedule_time?: MarkerTime;
  complete_time?: MarkerTime;
}

const markerMs = (time: MarkerTime | undefined) =>
  time ? (time.seconds ?? 0) * 1000 + (time.nanos ?? 0) / 1e6 : undefined;

/** Core's local activity marker data (JSON in the marker's `data` payload), or undefined for any other event. */
function localActivityData(event: HistoryEvent): LocalActivityMarkerData | undefined {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_local_activity') return undefined;
  const data = marker.details?.data?.payloads?.[0]?.data;
  if (!data) return undefined;
  return JSON.parse(Buffer.from(data).toString('utf8')) as LocalActivityMarkerData;
}

export function activitiesIn(events: HistoryEvent[]): HistoryActivity[] {
  return events.flatMap((event, index): HistoryActivity[] => {
    const scheduled = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (scheduled) return [{ type: scheduled, local: false, index }];
    const data = localActivityData(event);
    if (!data?.activity_type) return [];
    const from = markerMs(data.original_schedule_time);
    const to = markerMs(data.complete_time);
    return [
      {
        type: data.activity_type,
        local: true,
        index,
        ...(from !== undefined && to !== undefined ? { localMs: to - from } : {}),
      },
    ];
  });
}

/** The activity types in history order (local ones included). */
export const activityTypesIn = (events: HistoryEvent[]) => activitiesIn(events).map((activity) => activity.type);
