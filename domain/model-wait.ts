// Waiting out a model server that cannot be reached or answers 5xx (a local server restarting, a provider's outage):
// exponential backoff inside the coder up to a bound, so a restart costs seconds of waiting, not the node's re-runs.

/** How long the coder waits for an unreachable model server before it gives up (TASKLOOP_MODEL_WAIT_MS). */
export const DEFAULT_MODEL_WAIT_MS = 5 * 60_000;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;

export type ServerWait = { kind: 'wait'; delayMs: number } | { kind: 'give_up'; waitedMs: number };

/**
 * A server that refuses the coder's very first connection is down, not restarting: waiting minutes for it would only
 * delay the one clear failure. This short bound applies until the server has answered once in the coder run; a 5xx
 * (a server loading its model) and a refusal after answers (a restart) get the whole bound.
 */
export const DOWN_AT_START_WAIT_MS = 15_000;

/** The wait bound for a failed call: the whole bound, or the short one while nothing has ever answered a refusal. */
export function serverWaitBound(input: { boundMs: number; answeredBefore: boolean; refused: boolean }): number {
  return input.refused && !input.answeredBefore ? Math.min(input.boundMs, DOWN_AT_START_WAIT_MS) : input.boundMs;
}

/** After `tries` failed tries spanning `waitedMs`: wait 1 s, 2 s, 4 s … (at most 30 s), never past `boundMs`. */
export function decideServerWait(input: { tries: number; waitedMs: number; boundMs: number }): ServerWait {
  const left = input.boundMs - input.waitedMs;
  if (left <= 0) return { kind: 'give_up', waitedMs: input.waitedMs };
  const exponent = Math.max(0, input.tries - 1);
  const delayMs = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(exponent, 30), left);
  return { kind: 'wait', delayMs };
}

/**
 * A server that answers with an error is up: it is not waited for as long as one that cannot be reached. 502, 503
 * and 504 (a server loading its model, a gateway in front of one restarting) are waited out up to this bound; any
 * other error status (500: the server failed on this request) is tried this many times in all.
 */
export const ANSWERING_WITH_ERROR_WAIT_MS = 60_000;
export const ANSWERING_WITH_ERROR_TRIES = 3;
const LOADING_STATUSES = new Set([502, 503, 504]);

/** After `tries` failed tries that got HTTP `status`, spanning `waitedMs`: wait again, or give up, by the status's rule. */
export function decideErrorStatusWait(input: {
  status: number;
  tries: number;
  waitedMs: number;
  boundMs: number;
}): ServerWait {
  if (LOADING_STATUSES.has(input.status))
    return decideServerWait({ ...input, boundMs: Math.min(input.boundMs, ANSWERING_WITH_ERROR_WAIT_MS) });
  if (input.tries >= ANSWERING_WITH_ERROR_TRIES) return { kind: 'give_up', waitedMs: input.waitedMs };
  return decideServerWait(input);
}
