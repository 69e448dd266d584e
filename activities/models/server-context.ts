// The context window a local server actually runs with, where it says: llama.cpp's `GET /props` (n_ctx) and Ollama's
// `POST /api/show` (num_ctx, else its default bounded by the model's context_length). Hosted APIs say nothing here.

/** Ollama's context when a model sets no num_ctx (its documented default since 0.6). */
export const OLLAMA_DEFAULT_NUM_CTX = 4096;
// Each probe is a tiny local request; a server that does not answer quickly does not have the endpoint.
const PROBE_TIMEOUT_MS = 5_000;

/** The server's root: the base URL without its OpenAI `/v1` suffix. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
}

async function getJson(url: string, init: RequestInit, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    const response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!response.ok) return undefined;
    return (await response.json()) as unknown;
  } catch {
    // Not there, not JSON, or not answering: this server does not say.
    return undefined;
  }
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/** n_ctx from a llama.cpp `/props` body (older servers nest it in default_generation_settings). */
export function llamaContext(props: unknown): number | undefined {
  const body = props as { n_ctx?: unknown; default_generation_settings?: { n_ctx?: unknown } } | undefined;
  return positive(body?.default_generation_settings?.n_ctx) ?? positive(body?.n_ctx);
}

/** The context of an Ollama `/api/show` body: its num_ctx, else Ollama's default within the model's length. */
export function ollamaContext(show: unknown): number | undefined {
  const body = show as { parameters?: unknown; model_info?: Record<string, unknown> } | undefined;
  if (!body || typeof body !== 'object') return undefined;
  const numCtx = typeof body.parameters === 'string' ? /^num_ctx\s+(\d+)/m.exec(body.parameters)?.[1] : undefined;
  if (numCtx) return positive(Number(numCtx));
  const lengths = Object.entries(body.model_info ?? {}).filter(([key]) => key.endsWith('.context_length'));
  const trained = positive(lengths[0]?.[1]);
  if (trained === undefined && body.model_info === undefined) return undefined;
  return Math.min(trained ?? OLLAMA_DEFAULT_NUM_CTX, OLLAMA_DEFAULT_NUM_CTX);
}

/** The context window the server at `baseURL` reports, or undefined when it reports none. */
export async function readServerContextWindow(input: {
  baseURL: string;
  model: string;
  apiKey?: string;
  signal?: AbortSignal;
}): Promise<number | undefined> {
  const root = serverRoot(input.baseURL);
  const headers: Record<string, string> = input.apiKey ? { authorization: `Bearer ${input.apiKey}` } : {};
  const llama = llamaContext(await getJson(`${root}/props`, { headers }, input.signal));
  if (llama !== undefined) return llama;
  const show = await getJson(
    `${root}/api/show`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model: input.model }),
    },
    input.signal,
  );
  return ollamaContext(show);
}
