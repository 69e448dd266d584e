// The HTTP client of the model SDKs, bounded by taskloop's own timeout and nothing shorter. Node's fetch (undici)
// cuts every request whose headers or body take longer than 300 s (its Agent's headersTimeout and bodyTimeout), so a
// slow local model's turn was dropped at 300 s whatever TASKLOOP_MODEL_TIMEOUT_MS said, re-sent, and reported as
// "did not answer within 900000 ms". Each call here goes through undici's fetch with a dispatcher whose limits are
// the call's own timeout plus a margin: the SDK's timeout (taskloop's) always ends a call first, and a cut that is
// still the HTTP client's is named as such.
import { Agent, fetch as undiciFetch } from 'undici';

/** Past the call's timeout: the SDK's own abort fires first, and the client's limit only backs it up. */
const MARGIN_MS = 10_000;

export interface HttpLimits {
  /** Most milliseconds from the request sent to the reply's headers (llama-server sends them with the answer). */
  headersTimeoutMs: number;
  /** Most milliseconds between two chunks of the reply's body. */
  bodyTimeoutMs: number;
}

/** The HTTP client's limits for a call that taskloop bounds at `timeoutMs`. */
export const httpLimitsFor = (timeoutMs: number): HttpLimits => ({
  headersTimeoutMs: timeoutMs + MARGIN_MS,
  bodyTimeoutMs: timeoutMs + MARGIN_MS,
});

/** A request the HTTP client itself ended: which of its limits, and after how long. */
export interface HttpCut {
  limit: 'headers' | 'body';
  limitMs: number;
  elapsedMs: number;
}

/** Fetch options an SDK merges into each request (it sets the body, signal, headers and method itself). */
export type CallFetchOptions = Omit<RequestInit, 'body' | 'signal' | 'headers' | 'method'>;

export interface BoundedHttp {
  /** The fetch the SDK client uses. */
  fetch: typeof fetch;
  /** The per-call fetch options: a dispatcher whose limits come from the call's timeout. */
  fetchOptions(timeoutMs: number): CallFetchOptions;
  /** Why the last request was ended by the HTTP client, once (undefined when it was not). */
  takeCut(): HttpCut | undefined;
}

// Dispatchers by limits, shared: a call's timeout takes few distinct values, and each keeps its connections alive.
const agents = new Map<string, Agent>();

function agentFor(limits: HttpLimits): Agent {
  const key = `${limits.headersTimeoutMs}:${limits.bodyTimeoutMs}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ headersTimeout: limits.headersTimeoutMs, bodyTimeout: limits.bodyTimeoutMs });
    agents.set(key, agent);
  }
  return agent;
}

const cutCodes: Record<string, HttpCut['limit']> = {
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};

/** The undici limit that ended `error`'s request, found along its causes. */
function cutLimitOf(error: unknown): HttpCut['limit'] | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && cutCodes[code]) return cutCodes[code];
    current = current.cause;
  }
  return undefined;
}

/** An HTTP client for one provider; `limitsOf` sets the limits of a call from its timeout (tests shorten them). */
export function boundedHttp(limitsOf: (timeoutMs: number) => HttpLimits = httpLimitsFor): BoundedHttp {
  let cut: HttpCut | undefined;
  const limitsByDispatcher = new WeakMap<Agent, HttpLimits>();
  return {
    fetchOptions(timeoutMs) {
      const limits = limitsOf(timeoutMs);
      const dispatcher = agentFor(limits);
      limitsByDispatcher.set(dispatcher, limits);
      // `dispatcher` is undici's own option of RequestInit, which the DOM type does not list.
      return { dispatcher } as CallFetchOptions;
    },
    async fetch(input, init) {
      const started = Date.now();
      try {
        return (await undiciFetch(
          input as Parameters<typeof undiciFetch>[0],
          init as Parameters<typeof undiciFetch>[1],
        )) as unknown as Response;
      } catch (error) {
        const limit = cutLimitOf(error);
        const dispatcher = (init as { dispatcher?: Agent } | undefined)?.dispatcher;
        const limits = dispatcher && limitsByDispatcher.get(dispatcher);
        if (limit && limits)
          cut = {
            limit,
            limitMs: limit === 'headers' ? limits.headersTimeoutMs : limits.bodyTimeoutMs,
            elapsedMs: Date.now() - started,
          };
        throw error;
      }
    },
    takeCut() {
      const taken = cut;
      cut = undefined;
      return taken;
    },
  };
}
