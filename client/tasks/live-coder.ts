// What the coder of a running task is doing now, from its pending activity's heartbeat details (the workflow learns
// the coder's counts only when the node ends): requests and tokens so far, and the last model error.
import { describeTokens } from '../../domain/token-counts.js';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { CoderTelemetry } from '../../domain/records.js';

export interface LiveCoder {
  /** Tries of the coder activity (Temporal's retries), 1 for the first. */
  activityAttempt: number;
  step?: number;
  telemetry?: CoderTelemetry;
  /** The last model error the coder met, else the activity's last failure. */
  lastModelError?: string;
  /** Where the running coder saves its transcript after each turn (on the host that runs it). */
  transcriptPath?: string;
}

interface HeartbeatDetails {
  step?: number;
  transcriptPath?: string;
  telemetry?: CoderTelemetry;
  lastModelError?: string;
}

function decode(payload: Payload | undefined): HeartbeatDetails | undefined {
  if (!payload) return undefined;
  try {
    return defaultPayloadConverter.fromPayload<HeartbeatDetails>(payload);
  } catch {
    // Details of another shape (or an encoded payload): nothing live to show.
    return undefined;
  }
}

/** The running coder activity's live details, or undefined when no coder runs now. */
export function readLiveCoder(description: WorkflowExecutionDescription): LiveCoder | undefined {
  const pending = description.raw.pendingActivities?.find((activity) => activity.activityType?.name === 'runCoder');
  if (!pending) return undefined;
  const details = decode(pending.heartbeatDetails?.payloads?.[0] as Payload | undefined);
  const lastModelError = details?.lastModelError ?? pending.lastFailure?.message ?? undefined;
  return {
    activityAttempt: pending.attempt ?? 1,
    ...(details?.step === undefined ? {} : { step: details.step }),
    ...(details?.telemetry ? { telemetry: details.telemetry } : {}),
    ...(lastModelError ? { lastModelError } : {}),
    ...(typeof details?.transcriptPath === 'string' ? { transcriptPath: details.transcriptPath } : {}),
  };
}

/** One line for `taskloop status`. */
export function formatLiveCoder(live: LiveCoder): string {
  const t = live.telemetry;
  const counts = t
    ? `${t.modelRequests} model requests (${t.failedModelRequests ?? 0} failed, ${t.modelServerWaits ?? 0} waits for the server), tokens ${describeTokens({ input: t.inputTokens, output: t.outputTokens, requests: t.modelRequests, unmetered: t.unmeteredModelRequests })}`
    : 'no model request answered yet';
  const tries = live.activityAttempt > 1 ? `, try ${live.activityAttempt}` : '';
  const error = live.lastModelError ? `\n  last model error: ${live.lastModelError.split('\n')[0]?.slice(0, 200)}` : '';
  return `coder now: step ${live.step ?? 0}${tries}, ${counts}${error}`;
}
