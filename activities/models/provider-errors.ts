// Turns a provider's HTTP or network failure into what Temporal should do with it: retry after the server's
// Retry-After, retry with backoff, or stop (bad key). The SDKs' own retries are off, so this is the only policy.
import { ApplicationFailure } from '@temporalio/common';
import { isContextError } from '../../domain/model-context.js';
import { ModelProblem } from './types.js';

/** A provider failure in SDK-neutral terms. */
export type ProviderFault =
  | { kind: 'status'; status: number; headers?: { get(name: string): string | null } | null; detail: string }
  | { kind: 'timeout' }
  /** The HTTP client's own limit ended the request (activities/models/http-client.ts), not taskloop's timeout. */
  | { kind: 'cut'; limit: 'headers' | 'body'; limitMs: number; elapsedMs: number }
  | { kind: 'connection'; detail: string }
  | { kind: 'malformed'; detail: string };

type Headers = { get(name: string): string | null } | null | undefined;
type ErrorClass<T extends Error = Error> = abstract new (...args: never[]) => T;

/** The error classes both SDKs (generated from one template) define; each passes its own. */
export interface SdkErrors {
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIError: ErrorClass<Error & { status?: number; headers?: Headers }>;
}

/** An SDK's error as a provider fault; undefined for an abort (a cancellation) or an error of neither kind. */
export function toProviderFault(error: unknown, sdk: SdkErrors): ProviderFault | undefined {
  if (error instanceof sdk.APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof sdk.APIUserAbortError) return undefined;
  if (error instanceof sdk.APIConnectionError)
    return { kind: 'connection', detail: String(error.cause ?? error.message) };
  if (error instanceof sdk.APIError && error.status !== undefined)
    return { kind: 'status', status: error.status, headers: error.headers, detail: error.message };
  if (error instanceof SyntaxError)
    return { kind: 'malformed', detail: `the body is not valid JSON (${error.message})` };
  return undefined;
}

export interface FaultContext {
  spec: string;
  role: string;
  baseURL: string;
  keyVariable: string;
  timeoutMs: number;
  /** How the timeout was set, and how to change it. */
  timeoutSource?: string;
  /** When the call was sent (epoch ms): a "timeout" long before `timeoutMs` was not taskloop's. */
  startedAt?: number;
}

const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Milliseconds to wait from `retry-after-ms` or `Retry-After` (seconds or an HTTP date); undefined when absent. */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | null | undefined,
  nowMs: number,
): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - nowMs;
  if (!Number.isFinite(wait)) return undefined;
  return Math.min(Math.max(0, Math.ceil(wait)), MAX_RETRY_AFTER_MS);
}

/** The failure to throw for `fault`: an ApplicationFailure for infrastructure, a ModelProblem for a bad reply. */
export function toProviderFailure(
  fault: ProviderFault,
  context: FaultContext,
  nowMs: number,
): ApplicationFailure | ModelProblem {
  const who = `${context.spec} (${context.role}) at ${context.baseURL}`;
  if (fault.kind === 'malformed')
    return new ModelProblem(`the reply of ${context.spec} was malformed: ${fault.detail}`);
  if (fault.kind === 'cut' || fault.kind === 'timeout') return timeoutFailure(fault, context, who, nowMs);
  if (fault.kind === 'connection') {
    return ApplicationFailure.create({
      type: 'ProviderUnreachable',
      message: `${who} could not be reached: ${fault.detail}; check the base URL variable`,
    });
  }
  const { status } = fault;
  if (status === 429) {
    const nextRetryDelay = parseRetryAfter(fault.headers, nowMs);
    return ApplicationFailure.create({
      type: 'ProviderRateLimited',
      message: `${who} is rate limiting (429)${nextRetryDelay === undefined ? '' : `; retrying after ${nextRetryDelay} ms`}: ${fault.detail}`,
      ...(nextRetryDelay === undefined ? {} : { nextRetryDelay }),
    });
  }
  if (status === 401 || status === 403) {
    return ApplicationFailure.create({
      type: 'ProviderAuthFailed',
      nonRetryable: true,
      message: `${who} refused the credentials (${status}): set ${context.keyVariable} to a valid API key for that server (${fault.detail})`,
    });
  }
  if (status >= 500 || status === 408 || status === 409) {
    // The status travels in the details: the coder's wait follows its own rule for each (domain/model-wait.ts).
    return ApplicationFailure.create({
      type: 'ProviderUnavailable',
      message: `${who} is answering with an error: HTTP ${status}: ${fault.detail}`,
      details: [{ status }],
    });
  }
  if ((status === 400 || status === 413) && isContextError(fault.detail)) {
    // The coder refits its prompt once and names the window and the setting if it still does not fit.
    return ApplicationFailure.create({
      type: 'ContextOverflow',
      nonRetryable: true,
      message: `${who} refused the prompt as longer than its context window (HTTP ${status}): ${fault.detail}`,
    });
  }
  return ApplicationFailure.create({
    type: 'ProviderRequestRejected',
    nonRetryable: true,
    message: `${who} rejected the request with HTTP ${status}: ${fault.detail}; check the model name in '${context.spec}' and the server`,
  });
}

/** A call that ran out of time: taskloop's own timeout, the HTTP client's limit, or a cut by something in between. */
function timeoutFailure(
  fault: Extract<ProviderFault, { kind: 'cut' | 'timeout' }>,
  context: FaultContext,
  who: string,
  nowMs: number,
): ApplicationFailure {
  const source = context.timeoutSource ?? 'raise TASKLOOP_MODEL_TIMEOUT_MS for slow servers';
  if (fault.kind === 'cut') {
    return ApplicationFailure.create({
      type: 'ProviderTimeout',
      message: `${who}: the HTTP client's ${fault.limit} timeout of ${fault.limitMs} ms ended the call after ${fault.elapsedMs} ms, before taskloop's own timeout of ${context.timeoutMs} ms (${source})`,
    });
  }
  const elapsed = context.startedAt === undefined ? undefined : nowMs - context.startedAt;
  // Ended well before its timeout: something else cut the connection, and the message must not blame the timeout.
  if (elapsed !== undefined && elapsed < context.timeoutMs * 0.9)
    return ApplicationFailure.create({
      type: 'ProviderTimeout',
      message: `${who}: the connection was ended after ${elapsed} ms, before taskloop's own timeout of ${context.timeoutMs} ms, by something between taskloop and the model (a proxy's or the server's own time limit)`,
    });
  return ApplicationFailure.create({
    type: 'ProviderTimeout',
    message: `${who} did not answer within ${context.timeoutMs} ms (${source})`,
  });
}

/** No key and no custom server: the vendor's API cannot be called, and retrying will not change that. */
export function missingKey(spec: string, role: string, keyVariable: string, baseVariable: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'ProviderAuthFailed',
    nonRetryable: true,
    message: `${spec} for the ${role} needs an API key: set ${keyVariable} (or ${baseVariable} for a local server that needs none)`,
  });
}
