// What every request of an HTTP provider carries besides the conversation: the output limit (always sent), a timeout
// derived from it (not one fixed figure), and the caller's abort signal handed to the HTTP request itself.
import { modelCallTimeoutMs, outputLimit } from '../../domain/model-limits.js';
import { estimateTokens } from './estimate-tokens.js';
import type { FaultContext } from './provider-errors.js';
import type { ProviderEndpoint } from './provider-env.js';
import type { CompletionRequest, ModelParameters, ModelRole } from './types.js';

export interface CallSettings {
  maxTokens: number;
  timeoutMs: number;
  /** Why the timeout is what it is (named in a timeout failure, with the setting to change). */
  timeoutSource: string;
}

/** The output limit of a provider for `role`. */
export const maxTokensOf = (role: ModelRole, parameters: ModelParameters | undefined): number =>
  outputLimit(role, parameters?.maxTokens);

/** The settings of one call: the limit, and the time its prompt and output may take at the stated slowest speed. */
export function callSettings(
  request: CompletionRequest,
  maxTokens: number,
  endpoint: Pick<ProviderEndpoint, 'timeoutMs' | 'minTokensPerSecond'>,
): CallSettings {
  const promptTokens = estimateTokens(JSON.stringify(request.messages) + JSON.stringify(request.tools));
  const timeoutMs = modelCallTimeoutMs({
    maxTokens,
    promptTokens,
    minTokensPerSecond: endpoint.minTokensPerSecond,
    overrideMs: endpoint.timeoutMs,
  });
  const timeoutSource =
    endpoint.timeoutMs !== undefined
      ? 'fixed by TASKLOOP_MODEL_TIMEOUT_MS'
      : `for ${maxTokens} output tokens at ${endpoint.minTokensPerSecond ?? 'the default'} tokens/s at least; lower TASKLOOP_MODEL_MIN_TOKENS_PER_SECOND for a slower server, or set TASKLOOP_MODEL_TIMEOUT_MS`;
  return { maxTokens, timeoutMs, timeoutSource };
}

/** The fault context of one call (its own timeout, and when it was sent). */
export const callContext = (
  base: Omit<FaultContext, 'timeoutMs' | 'timeoutSource' | 'startedAt'>,
  settings: CallSettings,
  startedAt?: number,
): FaultContext => ({
  ...base,
  timeoutMs: settings.timeoutMs,
  timeoutSource: settings.timeoutSource,
  ...(startedAt === undefined ? {} : { startedAt }),
});
