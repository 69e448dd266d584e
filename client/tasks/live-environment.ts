// The environment step of a running task, from its pending `prepareEnvironment` activity: the workflow learns the
// environment's name only when the step ends, but the activity's heartbeats name it while it builds (or waits for
// another task's build), so `status`, `show` and the board say "environment: building NAME" instead of "claim".
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { formatElapsed } from '../output/task-board.js';

export interface LiveEnvironment {
  /** `looking`: the step started and has not said more (finding it in the cache takes a second). */
  step: 'looking' | 'building' | 'waiting';
  /** The environment's name (`<repository>-<key>`), once a heartbeat said it. */
  name?: string;
  /** How long the step has run so far (ms), from the activity's start. */
  elapsedMs?: number;
}

function decode(payload: Payload | undefined): Record<string, unknown> | undefined {
  if (!payload) return undefined;
  try {
    const details = defaultPayloadConverter.fromPayload<unknown>(payload);
    return typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : undefined;
  } catch {
    // Details of another shape (or an encoded payload): the step is shown without its name.
    return undefined;
  }
}

const millisOf = (time: { seconds?: unknown; nanos?: number | null } | null | undefined): number | undefined =>
  time?.seconds === undefined || time.seconds === null
    ? undefined
    : Number(time.seconds) * 1000 + Math.floor((time.nanos ?? 0) / 1e6);

/** The running environment step, or undefined when none runs now. */
export function readLiveEnvironment(
  description: WorkflowExecutionDescription,
  now = Date.now(),
): LiveEnvironment | undefined {
  const pending = description.raw.pendingActivities?.find(
    (activity) => activity.activityType?.name === 'prepareEnvironment',
  );
  if (!pending) return undefined;
  const details = decode(pending.heartbeatDetails?.payloads?.[0] as Payload | undefined);
  const step = details?.step === 'building' || details?.step === 'waiting' ? details.step : 'looking';
  const started = millisOf(pending.lastStartedTime);
  return {
    step,
    ...(typeof details?.environment === 'string' ? { name: details.environment } : {}),
    ...(started === undefined ? {} : { elapsedMs: Math.max(0, now - started) }),
  };
}

/** `environment: building calc-1a2b3c4d (12s)`: the line status prints and the board's note. */
export function formatLiveEnvironment(live: LiveEnvironment): string {
  const what =
    live.step === 'building'
      ? 'building'
      : live.step === 'waiting'
        ? 'waiting for another task that builds'
        : 'looking up';
  const elapsed = live.elapsedMs === undefined ? '' : ` (${formatElapsed(live.elapsedMs)})`;
  return `environment: ${what}${live.name ? ` ${live.name}` : ''}${elapsed}`;
}
