// Output limits and per-call timeouts of model requests. A server that is never told when to stop may generate for
// minutes (issue 41: a local model without `max_tokens` hit the fixed 120 s timeout on every call), so every role has
// a limit that is always sent, and a call may take as long as that limit needs at a stated slowest speed.

export type LimitedRole = 'coder' | 'reviewer' | 'judge' | 'skillWriter';

/** Most tokens one reply may hold, per role, when the agent version sets no `parameters.maxTokens`. */
export const defaultMaxTokens: Readonly<Record<LimitedRole, number>> = {
  // Room for one write_file of a few hundred lines; a coder that needs more writes in parts.
  coder: 2048,
  reviewer: 1024,
  judge: 1024,
  skillWriter: 1024,
};

/**
 * The slowest generation a call is given time for (tokens a second): Gemma 3 270M under llama-server on two CPU
 * cores shared with other work was measured at 1.5 to 2.2 tokens a second.
 */
export const DEFAULT_MIN_TOKENS_PER_SECOND = 2;
// Prompt processing is an order of magnitude faster than generation on the same CPU.
const PROMPT_SPEED_FACTOR = 10;
// Connection, queueing and loading a model on its first request.
const CALL_OVERHEAD_MS = 30_000;

/** The output limit a request of `role` sends: the version's own, else the role's default. */
export function outputLimit(role: LimitedRole, versionMaxTokens: number | undefined): number {
  return versionMaxTokens ?? defaultMaxTokens[role];
}

/**
 * How long one call may take: its prompt read and `maxTokens` generated at `minTokensPerSecond`, plus a fixed
 * overhead. A fixed `overrideMs` (TASKLOOP_MODEL_TIMEOUT_MS) wins when set.
 */
export function modelCallTimeoutMs(input: {
  maxTokens: number;
  promptTokens: number;
  minTokensPerSecond?: number;
  overrideMs?: number;
}): number {
  if (input.overrideMs !== undefined) return input.overrideMs;
  const speed = input.minTokensPerSecond ?? DEFAULT_MIN_TOKENS_PER_SECOND;
  const generating = (input.maxTokens / speed) * 1000;
  const reading = (input.promptTokens / (speed * PROMPT_SPEED_FACTOR)) * 1000;
  return Math.ceil(CALL_OVERHEAD_MS + generating + reading);
}
