// The `openai:<model>` provider: any OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, llama.cpp,
// LM Studio, OpenRouter) with tool calling, through the `openai` SDK with its own retries off.
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { callContext, callSettings, maxTokensOf } from './call-settings.js';
import { boundedHttp, type BoundedHttp } from './http-client.js';
import { missingKey, toProviderFailure, toProviderFault } from './provider-errors.js';
import type { ProviderEndpoint } from './provider-env.js';
import { readServerContextWindow } from './server-context.js';
import { ModelProblem } from './types.js';
import type {
  AssistantTurn,
  ChatMessage,
  CompletionRequest,
  ModelParameters,
  ModelProvider,
  ModelRole,
  ToolCall,
  ToolSpec,
} from './types.js';
import { requestSignal } from './request-signal.js';

const OPENAI_URL = 'https://api.openai.com/v1';
// Local servers (Ollama, vLLM) ignore the key, but the SDK insists on one.
const NO_KEY = 'no-key';

function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content === '' && message.toolCalls.length > 0 ? null : message.content,
        ...(message.toolCalls.length === 0
          ? {}
          : {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    default:
      return { role: message.role, content: message.content };
  }
}

function toOpenAITool(tool: ToolSpec): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** The arguments as an object, or the raw text when they are not one (cut off by the output limit, say). */
function parseArguments(text: string | undefined): Pick<ToolCall, 'arguments' | 'invalidArguments'> {
  if (text === undefined || text.trim() === '') return { arguments: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { arguments: value as Record<string, unknown> };
  } catch {
    // Falls through: the coder answers the call with a request for a shorter one.
  }
  return { arguments: {}, invalidArguments: text };
}

const finishReasons: Record<string, AssistantTurn['finishReason']> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
};

/** Reads one completion into an assistant turn; a reply without choices or with nothing in it is a ModelProblem. */
export function readCompletion(completion: unknown, spec: string): AssistantTurn {
  const reply = completion as Partial<ChatCompletion> | null;
  const choice = reply?.choices?.[0];
  if (!reply || !choice?.message) throw new ModelProblem(`the reply of ${spec} had no choices (malformed reply)`);
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call, index) => {
    if (call.type !== 'function')
      throw new ModelProblem(`the reply of ${spec} has a tool call of unknown type ${String(call.type)}`);
    return { id: call.id || `call_${index}`, name: call.function.name, ...parseArguments(call.function.arguments) };
  });
  const content = choice.message.content ?? '';
  const finishReason = choice.finish_reason ? (finishReasons[choice.finish_reason] ?? 'other') : undefined;
  // A reply cut by the limit before any text is the limit's doing, not an empty reply: the coder says so.
  if (content.trim() === '' && toolCalls.length === 0 && finishReason !== 'length')
    throw new ModelProblem(`the reply of ${spec} was empty (no text, no tool call)`);
  const usage = reply.usage;
  return {
    content,
    toolCalls,
    ...(usage ? { usage: { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 } } : {}),
    ...(typeof reply.model === 'string' && reply.model !== '' ? { model: reply.model } : {}),
    ...(finishReason ? { finishReason } : {}),
  };
}

type LimitField = 'max_tokens' | 'max_completion_tokens';

/** A 400 saying the server wants the other output-limit field (OpenAI's newer models refuse `max_tokens`). */
function otherLimitField(error: unknown, field: LimitField): LimitField | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== 400) return undefined;
  const other: LimitField = field === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  return error.message.includes(field) && error.message.includes(other) ? other : undefined;
}

/** Creates the provider for `model` on the server of `endpoint`. */
export function createOpenAIProvider(options: {
  model: string;
  role: ModelRole;
  endpoint: ProviderEndpoint;
  parameters?: ModelParameters;
  /** The HTTP client (tests shorten its limits); by default one bounded by each call's timeout. */
  http?: BoundedHttp;
}): ModelProvider {
  const { model, endpoint } = options;
  const spec = `openai:${model}`;
  const http = options.http ?? boundedHttp();
  const baseURL = endpoint.baseURL ?? OPENAI_URL;
  if (!endpoint.apiKey && !endpoint.baseURL)
    throw missingKey(spec, options.role, endpoint.keyVariable, endpoint.baseVariable);
  const client = new OpenAI({
    baseURL,
    apiKey: endpoint.apiKey ?? (endpoint.baseURL ? NO_KEY : undefined),
    maxRetries: 0,
    fetch: http.fetch,
  });
  const maxTokens = maxTokensOf(options.role, options.parameters);
  // OpenAI's own API takes the newer field; compatible servers (llama.cpp, Ollama, vLLM) the older one. A 400 naming
  // the other field switches, once, for the provider's life.
  let limitField: LimitField = endpoint.baseURL ? 'max_tokens' : 'max_completion_tokens';
  const base = { spec, role: options.role, baseURL, keyVariable: endpoint.keyVariable };
  let contextWindow: Promise<number | undefined> | undefined;

  const sampling = (request: CompletionRequest) => {
    const temperature = request.sampling?.temperature ?? options.parameters?.temperature;
    const seed = request.sampling?.seed ?? options.parameters?.seed;
    return { ...(temperature === undefined ? {} : { temperature }), ...(seed === undefined ? {} : { seed }) };
  };
  const send = (request: CompletionRequest, timeout: number) =>
    client.chat.completions.create(
      {
        model,
        messages: request.messages.map(toOpenAIMessage),
        ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toOpenAITool) }),
        ...sampling(request),
        [limitField]: maxTokens,
      },
      { signal: requestSignal(request.signal), timeout, fetchOptions: http.fetchOptions(timeout) },
    );

  return {
    spec,
    maxTokens,
    baseURL,
    async complete(request: CompletionRequest): Promise<AssistantTurn> {
      const settings = callSettings(request, maxTokens, endpoint);
      let completion: unknown;
      const startedAt = Date.now();
      http.takeCut();
      try {
        completion = await send(request, settings.timeoutMs).catch((error: unknown) => {
          const other = otherLimitField(error, limitField);
          if (!other) throw error;
          limitField = other;
          return send(request, settings.timeoutMs);
        });
      } catch (error) {
        const cut = http.takeCut();
        const fault = cut ? { kind: 'cut' as const, ...cut } : toProviderFault(error, OpenAI);
        if (!fault) throw error;
        throw toProviderFailure(fault, callContext(base, settings, startedAt), Date.now());
      }
      return readCompletion(completion, spec);
    },
    serverContextWindow(signal?: AbortSignal) {
      if (!endpoint.baseURL) return Promise.resolve(undefined);
      contextWindow ??= readServerContextWindow({ baseURL, model, apiKey: endpoint.apiKey, signal });
      return contextWindow;
    },
  };
}
