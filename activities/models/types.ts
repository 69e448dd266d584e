// OpenAI-like chat types shared by every model provider and by the coder loop.

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
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
}

/** Sampling parameters an agent version may set; unset means the server's default. */
export interface ModelParameters {
  temperature?: number;
  maxTokens?: number;
}

export const modelRoles = ['coder', 'reviewer', 'judge', 'skillWriter'] as const;
export type ModelRole = (typeof modelRoles)[number];

export interface CompletionRequest {
  role: ModelRole;
  messages: ChatMessage[];
  tools: ToolSpec[];
}

/** A chat model behind one spec such as `scripted:turns.json` or `openai:gpt-4o`. */
export interface ModelProvider {
  readonly spec: string;
  complete(request: CompletionRequest): Promise<AssistantTurn>;
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
