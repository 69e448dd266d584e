// The `openai:<model>` provider: any OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM, llama.cpp,
// LM Studio, OpenRouter) with tool calling, through the `openai` SDK with its own retries off.
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { missingKey, toProviderFailure, type FaultContext, type ProviderFault } from './provider-errors.js';
import type { ProviderEndpoint } from './provider-env.js';
import { ModelProblem } from './types.js';
import type {
  AssistantTurn,
  ChatMessage,
  CompletionRequest,
  ModelParameters,
  ModelProvider,
  ToolCall,
  ToolSpec,
} from './types.js';

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

function parseArguments(text: string | undefined, name: string): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ModelProblem(`malformed JSON in the arguments of tool call ${name}: ${text.slice(0, 200)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelProblem(`the arguments of tool call ${name} are not a JSON object: ${text.slice(0, 200)}`);
  }
  return value as Record<string, unknown>;
}

/** Reads one completion into an assistant turn; a reply without choices or with nothing in it is a ModelProblem. */
export function readCompletion(completion: unknown, spec: string): AssistantTurn {
  const choice = (completion as Partial<ChatCompletion> | null)?.choices?.[0];
  if (!choice?.message) throw new ModelProblem(`the reply of ${spec} had no choices (malformed reply)`);
  const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).map((call, index) => {
    if (call.type !== 'function')
      throw new ModelProblem(`the reply of ${spec} has a tool call of unknown type ${String(call.type)}`);
    return {
      id: call.id || `call_${index}`,
      name: call.function.name,
      arguments: parseArguments(call.function.arguments, call.function.name),
    };
  });
  const content = choice.message.content ?? '';
  if (content.trim() === '' && toolCalls.length === 0)
    throw new ModelProblem(`the reply of ${spec} was empty (no text, no tool call)`);
  const usage = (completion as ChatCompletion).usage;
  return {
    content,
    toolCalls,
    ...(usage ? { usage: { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 } } : {}),
  };
}

function toFault(error: unknown): ProviderFault | undefined {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof OpenAI.APIUserAbortError) return undefined;
  if (error instanceof OpenAI.APIConnectionError)
    return { kind: 'connection', detail: String(error.cause ?? error.message) };
  if (error instanceof OpenAI.APIError && error.status !== undefined)
    return { kind: 'status', status: error.status, headers: error.headers, detail: error.message };
  if (error instanceof SyntaxError)
    return { kind: 'malformed', detail: `the body is not valid JSON (${error.message})` };
  return undefined;
}

/** Creates the provider for `model` on the server of `endpoint`. */
export function createOpenAIProvider(options: {
  model: string;
  role: string;
  endpoint: ProviderEndpoint;
  parameters?: ModelParameters;
}): ModelProvider {
  const { model, endpoint } = options;
  const spec = `openai:${model}`;
  const baseURL = endpoint.baseURL ?? OPENAI_URL;
  if (!endpoint.apiKey && !endpoint.baseURL)
    throw missingKey(spec, options.role, endpoint.keyVariable, endpoint.baseVariable);
  const client = new OpenAI({
    baseURL,
    apiKey: endpoint.apiKey ?? (endpoint.baseURL ? NO_KEY : undefined),
    maxRetries: 0,
    timeout: endpoint.timeoutMs,
  });
  const context: FaultContext = {
    spec,
    role: options.role,
    baseURL,
    keyVariable: endpoint.keyVariable,
    timeoutMs: endpoint.timeoutMs,
  };

  return {
    spec,
    async complete(request: CompletionRequest): Promise<AssistantTurn> {
      let completion: unknown;
      try {
        completion = await client.chat.completions.create({
          model,
          messages: request.messages.map(toOpenAIMessage),
          ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toOpenAITool) }),
          ...(options.parameters?.temperature === undefined ? {} : { temperature: options.parameters.temperature }),
          ...(options.parameters?.maxTokens === undefined ? {} : { max_tokens: options.parameters.maxTokens }),
        });
      } catch (error) {
        const fault = toFault(error);
        if (!fault) throw error;
        throw toProviderFailure(fault, context, Date.now());
      }
      return readCompletion(completion, spec);
    },
  };
}
