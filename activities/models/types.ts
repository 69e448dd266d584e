// OpenAI-like chat types shared by every model provider and by the coder loop.

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /**
   * The arguments as the model wrote them when they are not a JSON object (cut off by the output limit, say):
   * `arguments` is then `{}` and the coder asks for a shorter call instead of running it.
   */
  invalidArguments?: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool offered to the model; `parameters` is a JSON schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One reply of the model: text plus the tool calls it wants run, in order. */
export interface AssistantTurn {
  content: string;
  toolCalls: ToolCall[];
  usage?: TokenUsage;
  /** The model the server says answered (its reply's `model`), which a local server may not take from the request. */
  model?: string;
  /** `length` when the reply was cut by the output limit. */
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'other';
}

/** Sampling parameters an agent version may set; unset means the server's default. */
export interface ModelParameters {
  temperature?: number;
  /** The output limit; the role's default (domain/model-limits.ts) when unset, never left to the server. */
  maxTokens?: number;
  /** The context window, when the agent version states it (the server's own figure wins). */
  contextWindow?: number;
  /** A sampling seed (sent where the API takes one: OpenAI-compatible servers); a retry sets its own. */
  seed?: number;
}

export const modelRoles = ['coder', 'reviewer', 'judge', 'skillWriter'] as const;
export type ModelRole = (typeof modelRoles)[number];

export interface CompletionRequest {
  role: ModelRole;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /**
   * Sampling for this request only, over the version's: the coder varies a reply the model sent before word for word
   * (a small model at temperature 0 answers the same refusal with the same reply).
   */
  sampling?: { temperature: number; seed: number };
  /** Aborts the HTTP request itself, so a cancelled task stops the server's generation too. */
  signal?: AbortSignal;
}

/** A chat model behind one spec such as `scripted:turns.json` or `openai:gpt-4o`. */
export interface ModelProvider {
  readonly spec: string;
  complete(request: CompletionRequest): Promise<AssistantTurn>;
  /** The output limit every request of this provider sends. */
  readonly maxTokens?: number;
  /** The server's base URL, for messages that name it (absent for scripted models). */
  readonly baseURL?: string;
  /** The context window in tokens as the server reports it, when it does (llama.cpp, Ollama); asked once. */
  serverContextWindow?(signal?: AbortSignal): Promise<number | undefined>;
}

/**
 * A failure of the model itself (not of the infrastructure): the failure classifier reads the
 * `model problem:` prefix, and the coder turns it into a `model_error` result instead of throwing.
 */
export class ModelProblem extends Error {
  constructor(
    detail: string,
    /** The cause kind it is (domain/failure-causes.ts): a bad reply, or a scripted model out of turns. */
    readonly causeKind: 'ModelMalformed' | 'ModelScriptExhausted' = 'ModelMalformed',
  ) {
    super(detail.startsWith('model problem:') ? detail : `model problem: ${detail}`);
    this.name = 'ModelProblem';
  }
}
