// Rewrites a recorded history (the JSON the Temporal CLI writes) as if the workflow task that ran the first local
// activity had ended right after its marker: the commands that followed it in that task come in a new one. A worker
// on a loaded machine recorded exactly that shape (the claim's marker last in one task, the coder scheduled in the
// next); this makes it on demand, for replay tests.

interface JsonEvent {
  eventId: string;
  eventTime: string;
  eventType: string;
  [attributes: string]: unknown;
}
interface JsonHistory {
  events: JsonEvent[];
}

const added = 3;

/** Adds `added` to every `...EventId` that points past `after`; points the split task's commands at `completedId`. */
function renumber(value: unknown, after: number, splitCompletedId: string, completedId: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renumber(item, after, splitCompletedId, completedId));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === 'workflowTaskCompletedEventId' && inner === splitCompletedId) return [key, completedId];
      if (key.endsWith('EventId') && typeof inner === 'string' && Number(inner) > after)
        return [key, String(Number(inner) + added)];
      return [key, renumber(inner, after, splitCompletedId, completedId)];
    }),
  );
}

export function splitTaskAfterFirstLocalActivity(history: JsonHistory): JsonHistory {
  const events = history.events;
  const markerIndex = events.findIndex(
    (event) =>
      (event.markerRecordedEventAttributes as { markerName?: string } | undefined)?.markerName ===
      'core_local_activity',
  );
  if (markerIndex < 0) throw new Error('the history has no local activity marker');
  const marker = events[markerIndex] as JsonEvent;
  const splitCompletedId = (marker.markerRecordedEventAttributes as { workflowTaskCompletedEventId: string })
    .workflowTaskCompletedEventId;
  const scheduled = events.find((event) => event.eventType === 'EVENT_TYPE_WORKFLOW_TASK_SCHEDULED') as JsonEvent;
  const started = events.find((event) => event.eventType === 'EVENT_TYPE_WORKFLOW_TASK_STARTED') as JsonEvent;
  const completed = events.find((event) => event.eventId === splitCompletedId) as JsonEvent;
  const after = Number(marker.eventId);
  const [scheduledId, startedId, completedId] = [1, 2, 3].map((offset) => String(after + offset)) as [
    string,
    string,
    string,
  ];
  const at = { eventTime: marker.eventTime, taskId: '0' };
  const inserted: JsonEvent[] = [
    { ...scheduled, ...at, eventId: scheduledId },
    {
      ...started,
      ...at,
      eventId: startedId,
      workflowTaskStartedEventAttributes: {
        ...(started.workflowTaskStartedEventAttributes as object),
        scheduledEventId: scheduledId,
      },
    },
    {
      ...completed,
      ...at,
      eventId: completedId,
      workflowTaskCompletedEventAttributes: {
        ...(completed.workflowTaskCompletedEventAttributes as object),
        scheduledEventId: scheduledId,
        startedEventId: startedId,
      },
    },
  ];
  const later = events.slice(markerIndex + 1).map((event) => ({
    ...(renumber(event, after, splitCompletedId, completedId) as JsonEvent),
    eventId: String(Number(event.eventId) + added),
  }));
  return { ...history, events: [...events.slice(0, markerIndex + 1), ...inserted, ...later] };
}
