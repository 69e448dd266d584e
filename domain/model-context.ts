// The context window a coder's requests must fit: where its figure comes from, how much of it the prompt may take,
// and the message that names the fix when even the smallest prompt does not fit. Pure: figures in, figures out.

/** The window assumed when neither the server, a variable nor the registry says (hosted models have more). */
export const DEFAULT_CONTEXT_WINDOW = 64_000;
/** The variables that set it (the per-role one first); the registry's `parameters.contextWindow` comes after them. */
export const contextWindowVariables = (rolePrefix: string) => [
  `TASKLOOP_${rolePrefix}_CONTEXT_WINDOW`,
  'TASKLOOP_CONTEXT_WINDOW',
];
// Token estimates run at 4 characters a token; code and JSON tokenize denser, so a margin stays free.
const ESTIMATE_MARGIN = 0.8;
// The first message may take this share of the prompt budget; the conversation grows into the rest.
const FIRST_MESSAGE_SHARE = 0.6;
/** The first message never needs more than this, however large the window (the model's attention is finite). */
export const MAX_FIRST_MESSAGE_TOKENS = 24_000;

export type ContextSource = 'server' | 'setting' | 'default';

export interface ContextPlan {
  window: number;
  source: ContextSource;
  /** Who set it, for messages: `the server's /props`, `TASKLOOP_CODER_CONTEXT_WINDOW`, … */
  sourceName: string;
  /** Output tokens kept free for the reply. */
  reservedForReply: number;
  /** Estimated tokens every request (system, messages and tool schemas) must stay within. */
  promptBudget: number;
  /** Estimated tokens of the first user message (goal, files, evidence), after the fixed parts. */
  firstMessageBudget: number;
}

/**
 * Plans the context: the server's window when it reports one, else the setting, else the default. The reply keeps
 * its output limit, or a quarter of a small window (the server stops it at the window's end anyway).
 */
export function planContext(input: {
  serverWindow?: number;
  setting?: { tokens: number; name: string };
  maxTokens: number;
  /** Estimated tokens of what every request carries whole: the system prompt and the tool schemas. */
  fixedTokens: number;
}): ContextPlan {
  const [window, source, sourceName]: [number, ContextSource, string] =
    input.serverWindow !== undefined
      ? [input.serverWindow, 'server', "the model server's own report"]
      : input.setting
        ? [input.setting.tokens, 'setting', input.setting.name]
        : [DEFAULT_CONTEXT_WINDOW, 'default', 'the default'];
  const reservedForReply = Math.min(input.maxTokens, Math.floor(window / 4));
  const promptBudget = Math.floor((window - reservedForReply) * ESTIMATE_MARGIN);
  const firstMessageBudget = Math.min(
    MAX_FIRST_MESSAGE_TOKENS,
    Math.floor(promptBudget * FIRST_MESSAGE_SHARE) - input.fixedTokens,
  );
  return { window, source, sourceName, reservedForReply, promptBudget, firstMessageBudget };
}

/** The window a server names in its context error (llama.cpp, vLLM, OpenAI, Anthropic wordings), when it does. */
export function windowInContextError(message: string): number | undefined {
  const patterns = [
    /available context size \((\d+) tokens\)/i,
    /maximum context length is (\d+)/i,
    /> (\d+) maximum/i,
    /context (?:window|size|length) (?:of|is) (\d+)/i,
  ];
  for (const pattern of patterns) {
    const found = pattern.exec(message)?.[1];
    if (found) return Number(found);
  }
  return undefined;
}

/** True for a server's words that the prompt does not fit its context. */
export function isContextError(message: string): boolean {
  return /exceeds the available context|context (?:size|length|window)|prompt is too long|too many tokens/i.test(
    message,
  );
}

/** What to say when the prompt does not fit: the window and where it came from, the prompt's size, the setting. */
export function contextOverflowMessage(input: {
  plan: ContextPlan;
  promptTokens: number;
  settingNames: string[];
  detail?: string;
}): string {
  const { plan } = input;
  const fix =
    plan.source === 'server'
      ? 'start the model server with a larger context (llama-server -c 8192, Ollama num_ctx 8192)'
      : `set ${input.settingNames.join(' or ')} (or the agent version's parameters.contextWindow) to the server's real window, or give the server a larger one`;
  return (
    `the coder's prompt (about ${input.promptTokens} tokens, with ${plan.reservedForReply} kept for the reply) does not ` +
    `fit the model's context window of ${plan.window} tokens (from ${plan.sourceName})` +
    `${input.detail ? `; the server said: ${input.detail}` : ''}: ${fix}; a smaller maxTokens leaves more room for the prompt`
  );
}
