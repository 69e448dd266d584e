// The activities a workflow history records, in order: a task-queue activity by its scheduled event, a local
// activity by its marker (the claim runs as one), whose data names its type.
import type { WorkflowHandle } from '@temporalio/client';

// Typed through the client, so neither the tests nor the bench need a direct dependency on @temporalio/proto.
export type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

export interface HistoryActivity {
  type: string;
  local: boolean;
  /** Index of its scheduled event (task queue) or its marker (local) in the history. */
  index: number;
}

interface LocalActivityMarkerData {
  activity_type?: string;
}

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
    return [{ type: data.activity_type, local: true, index }];
  });
}

/** The activity types in history order (local ones included). */
export const activityTypesIn = (events: HistoryEvent[]) => activitiesIn(events).map((activity) => activity.type);
