// One model turn of the coder: every request counted when it is sent (tokens from the reply's usage; a request that
// failed or got none back counts as one whose tokens are unknown, never as a guess), an unreachable or restarting server waited out with backoff up to a bound, and the
// activity kept alive by heartbeats while the call or the wait lasts.
import { ApplicationFailure } from '@temporalio/common';
import { decideErrorStatusWait, decideServerWait, serverWaitBound, type ServerWait } from '../../domain/model-wait.js';
import type { CoderTelemetry } from '../../domain/records.js';
import type { AssistantTurn, CompletionRequest, ModelProvider } from '../models/types.js';
import { abortable } from './abortable.js';
import { HEARTBEAT_INTERVAL_MS } from '../heartbeat-while.js';

// Long model calls keep the activity alive, and let a cancel reach it within about a second (heartbeat-while.ts).
const CALL_HEARTBEAT_MS = HEARTBEAT_INTERVAL_MS;
// Failures a server that is starting, restarting or briefly down gives; anything else is Temporal's to retry.
const WAITED_OUT = new Set(['ProviderUnreachable', 'ProviderUnavailable']);

export interface ModelCallInput {
  provider: ModelProvider;
  request: CompletionRequest;
  /** Counters updated in place: a failed call's request and tokens are never lost. */
  telemetry: CoderTelemetry;
  /** How long an unreachable server is waited for, in total, before the run fails (ModelServerDown). */
  waitBoundMs: number;
  /** Called while the call or a wait lasts, and with each failure's message (shown by `status`). */
  heartbeat?: (lastModelError?: string) => void;
  signal?: AbortSignal;
}

/** Awaits `promise`, heartbeating every CALL_HEARTBEAT_MS so a slow model does not look like a lost worker. */
export async function withHeartbeat<T>(promise: Promise<T>, beat: (() => void) | undefined): Promise<T> {
  if (!beat) return promise;
  const timer = setInterval(beat, CALL_HEARTBEAT_MS);
  try {
    return await promise;
  } finally {
    clearInterval(timer);
  }
}

/** A request whose tokens are unknown: no usage came back. */
const countUnmetered = (telemetry: CoderTelemetry) => {
  telemetry.unmeteredModelRequests = (telemetry.unmeteredModelRequests ?? 0) + 1;
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Asks the model once, waiting out an unreachable server; counts every request it sends. */
export async function callModel(input: ModelCallInput): Promise<AssistantTurn> {
  const { telemetry, request, signal } = input;
  const startedAt = Date.now();
  // Counted over the whole coder run (a resumed run's too): has the server ever answered it?
  const answeredBefore = telemetry.modelRequests - (telemetry.failedModelRequests ?? 0) > 0;
  let lastError: string | undefined;
  const beat = input.heartbeat && (() => input.heartbeat?.(lastError));
  for (let tries = 1; ; tries++) {
    signal?.throwIfAborted();
    telemetry.modelRequests += 1;
    try {
      const turn = await withHeartbeat(abortable(input.provider.complete({ ...request, signal }), signal), beat);
      if (turn.usage) {
        telemetry.inputTokens += turn.usage.inputTokens;
        telemetry.outputTokens += turn.usage.outputTokens;
      } else countUnmetered(telemetry);
      return turn;
    } catch (error) {
      // What a failed request cost is unknown (the server may or may not have read the prompt): it is counted as a
      // request, never as a guess of tokens that would be added to the totals as if measured.
      telemetry.failedModelRequests = (telemetry.failedModelRequests ?? 0) + 1;
      countUnmetered(telemetry);
      lastError = error instanceof Error ? error.message : String(error);
      input.heartbeat?.(lastError);
      if (signal?.aborted || !(error instanceof ApplicationFailure) || !WAITED_OUT.has(error.type ?? '')) throw error;
      const wait = decideWait(error, {
        tries,
        waitedMs: Date.now() - startedAt,
        boundMs: input.waitBoundMs,
        answeredBefore,
      });
      if (wait.kind === 'give_up') throw serverDown(input.provider, request.role, tries, wait.waitedMs, error);
      telemetry.modelServerWaits = (telemetry.modelServerWaits ?? 0) + 1;
      await withHeartbeat(abortable(delay(wait.delayMs), signal), beat);
    }
  }
}

/** The HTTP status a ProviderUnavailable failure carries (provider-errors.ts), if any. */
function errorStatus(error: ApplicationFailure): number | undefined {
  const detail = error.details?.[0] as { status?: unknown } | undefined;
  return typeof detail?.status === 'number' ? detail.status : undefined;
}

/** An answering server's error status by its own rule; an unreachable server by the wait bound. */
function decideWait(
  error: ApplicationFailure,
  input: { tries: number; waitedMs: number; boundMs: number; answeredBefore: boolean },
): ServerWait {
  const status = errorStatus(error);
  if (status !== undefined) return decideErrorStatusWait({ ...input, status });
  const refused = error.type === 'ProviderUnreachable';
  const boundMs = serverWaitBound({ boundMs: input.boundMs, answeredBefore: input.answeredBefore, refused });
  return decideServerWait({ ...input, boundMs });
}

function serverDown(
  provider: ModelProvider,
  role: string,
  tries: number,
  waitedMs: number,
  error: ApplicationFailure,
): ApplicationFailure {
  const where = provider.baseURL ? ` at ${provider.baseURL}` : '';
  const status = errorStatus(error);
  const over = `${tries} tries over ${Math.round(waitedMs / 1000)} s`;
  if (status !== undefined)
    return ApplicationFailure.create({
      type: 'ModelServerError',
      nonRetryable: true,
      message:
        `the model server of ${provider.spec}${where} is answering with an error (HTTP ${status}; ${over}; last: ` +
        `${error.message}): see the server's log; it is up, so it is not waited for as one that cannot be reached ` +
        `(models.${role}.serverWaitMs or TASKLOOP_MODEL_WAIT_MS bounds the wait for a 502, 503 or 504, at most a minute)`,
    });
  return ApplicationFailure.create({
    type: 'ModelServerDown',
    nonRetryable: true,
    message:
      `the model server of ${provider.spec}${where} could not be reached for ${Math.round(waitedMs / 1000)} s ` +
      `(${tries} tries; last: ${error.message}): start it or fix its base URL variable; models.${role}.serverWaitMs in the task ` +
      '(or TASKLOOP_MODEL_WAIT_MS) sets how long to wait for it',
  });
}
