// Task events, as in the original Python loop (DESIGN.md, Events): kept in workflow state, sent to event sinks, failures forwarded to the learning workflow.

/** Every event type a task workflow emits (a start is the workflow's own start event, not a task event). */
export const taskEventTypes = [
  'TEST_FAILED',
  'REVIEW_FAILED',
  'TASK_FAILED',
  'TASK_RETRY_EXHAUSTED',
  'COMMIT_CREATED',
  'TASK_COMPLETED',
  'TASK_CANCELLED',
  'APPROVAL_REQUESTED',
  'APPROVED',
  'CHANGES_REQUESTED',
  'REJECTED',
  'APPROVAL_TIMED_OUT',
  'CHANGE_LANDED',
  'LANDING_SENT_BACK',
] as const;
export type TaskEventType = (typeof taskEventTypes)[number];

/** One event of one task; `id` is stable per workflow and sequence number so a sink can drop duplicate appends. */
export interface TaskEvent {
  id: string;
  type: TaskEventType;
  workflowId: string;
  taskId: string;
  project: string;
  attempt: number;
  /** ISO 8601 time, read by the caller (workflow time), never by this module. */
  at: string;
  data: Record<string, unknown>;
}

export interface TaskEventBase {
  workflowId: string;
  taskId: string;
  project: string;
  attempt: number;
}

/** The data each event type must carry; TASK_FAILED says whether another attempt follows. */
export type TaskEventData<T extends TaskEventType> = T extends 'TASK_FAILED'
  ? { will_retry: boolean } & Record<string, unknown>
  : Record<string, unknown>;

/** Builds an event; `seq` is the event's position in its workflow, which makes `id` = `<workflowId>#<seq>`. */
export function createTaskEvent<T extends TaskEventType>(
  type: T,
  base: TaskEventBase,
  data: TaskEventData<T>,
  at: string,
  seq: number,
): TaskEvent {
  return {
    id: `${base.workflowId}#${seq}`,
    type,
    workflowId: base.workflowId,
    taskId: base.taskId,
    project: base.project,
    attempt: base.attempt,
    at,
    data: { ...data },
  };
}
