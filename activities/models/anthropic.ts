// The `anthropic:<model>` provider: the Anthropic Messages API with tool use, through `@anthropic-ai/sdk` with
// its own retries off.
import Anthropic from '@anthropic-ai/sdk';
import { callContext, callSettings, maxTokensOf } from './call-settings.js';
import { boundedHttp, type BoundedHttp } from './http-client.js';
import { missingKey, toProviderFailure, toProviderFault } from './provider-errors.js';
import type { ProviderEndpoint } from './provider-env.js';
import { ModelProblem } from './types.js';
import type {
  AssistantTurn,
  ChatMessage,
  CompletionRequest,
  ModelParameters,
  ModelProvider,
  ModelRole,
  ToolCall,
} from './types.js';
import { requestSignal } from './request-signal.js';

const ANTHROPIC_URL = 'https://api.anthropic.com';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };
interface Turn {
  role: 'user' | 'assistant';
  content: Block[];
}

function toBlocks(message: Exclude<ChatMessage, { role: 'system' }>): Block[] {
  if (message.role === 'tool')
    return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }];
  if (message.role === 'user') return [{ type: 'text', text: message.content }];
  const blocks: Block[] = message.content.trim() === '' ? [] : [{ type: 'text', text: message.content }];
  for (const call of message.toolCalls)
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  // The API refuses an assistant turn without content.
  return blocks.length > 0 ? blocks : [{ type: 'text', text: '(no reply)' }];
}

/** Converts chat messages to a system prompt and alternating turns (tool results travel in user turns). */
export function toAnthropicMessages(messages: readonly ChatMessage[]): { system: string; turns: Turn[] } {
  const system = messages.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n\n');
  const turns: Turn[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = turns.at(-1);
    // Consecutive same-role messages merge: the API wants strict alternation.
    if (last?.role === role) last.content.push(...toBlocks(message));
    else turns.push({ role, content: toBlocks(message) });
  }
  return { system, turns };
}

interface RawReply {
  content?: unknown;
  usage?: { input_tokens?: number; output_tokens?: number };
  model?: unknown;
  stop_reason?: unknown;
}

const stopReasons: Record<string, AssistantTurn['finishReason']> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
};

/** Reads one Messages API reply; no content array, or no text and no tool use, is a ModelProblem. */
export function readMessage(reply: unknown, spec: string): AssistantTurn {
  const content = (reply as RawReply | null)?.content;
  if (!Array.isArray(content)) throw new ModelProblem(`the reply of ${spec} has no content blocks (malformed reply)`);
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of content as { type?: string; text?: unknown; id?: unknown; name?: unknown; input?: unknown }[]) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type !== 'tool_use') continue;
    if (
      typeof block.name !== 'string' ||
      typeof block.input !== 'object' ||
      block.input === null ||
      Array.isArray(block.input)
    ) {
      throw new ModelProblem(
        `the reply of ${spec} has a malformed tool_use block: ${JSON.stringify(block).slice(0, 200)}`,
      );
    }
    toolCalls.push({
      id: typeof block.id === 'string' ? block.id : `toolu_${toolCalls.length}`,
      name: block.name,
      arguments: block.input as Record<string, unknown>,
    });
  }
  const text = texts.join('\n');
  const raw = reply as RawReply;
  const finishReason = typeof raw.stop_reason === 'string' ? (stopReasons[raw.stop_reason] ?? 'other') : undefined;
  if (text.trim() === '' && toolCalls.length === 0 && finishReason !== 'length')
    throw new ModelProblem(`the reply of ${spec} was empty (no text, no tool use)`);
  const usage = raw.usage;
  return {
    content: text,
    toolCalls,
    ...(usage ? { usage: { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 } } : {}),
    ...(typeof raw.model === 'string' && raw.model !== '' ? { model: raw.model } : {}),
    ...(finishReason ? { finishReason } : {}),
  };
}

/** Creates the provider for `model` on the server of `endpoint`. */
export function createAnthropicProvider(options: {
  model: string;
  role: ModelRole;
  endpoint: ProviderEndpoint;
  parameters?: ModelParameters;
  /** The HTTP client (tests shorten its limits); by default one bounded by each call's timeout. */
  http?: BoundedHttp;
}): ModelProvider {
  const { model, endpoint } = options;
  const spec = `anthropic:${model}`;
  const http = options.http ?? boundedHttp();
  const baseURL = endpoint.baseURL ?? ANTHROPIC_URL;
  if (!endpoint.apiKey && !endpoint.baseURL)
    throw missingKey(spec, options.role, endpoint.keyVariable, endpoint.baseVariable);
  const client = new Anthropic({ baseURL, apiKey: endpoint.apiKey ?? 'no-key', maxRetries: 0, fetch: http.fetch });
  const maxTokens = maxTokensOf(options.role, options.parameters);
  const base = { spec, role: options.role, baseURL, keyVariable: endpoint.keyVariable };

  return {
    spec,
    maxTokens,
    baseURL,
    async complete(request: CompletionRequest): Promise<AssistantTurn> {
      const { system, turns } = toAnthropicMessages(request.messages);
      const settings = callSettings(request, maxTokens, endpoint);
      let reply: unknown;
      const startedAt = Date.now();
      http.takeCut();
      // The request's own sampling (a varied repeat) over the version's.
      const temperature = request.sampling?.temperature ?? options.parameters?.temperature;
      try {
        reply = await client.messages.create(
          {
            model,
            max_tokens: maxTokens,
            ...(system === '' ? {} : { system }),
            messages: turns as Anthropic.MessageParam[],
            ...(request.tools.length === 0
              ? {}
              : {
                  tools: request.tools.map((tool) => ({
                    name: tool.name,
                    description: tool.description,
                    input_schema: tool.parameters as Anthropic.Tool.InputSchema,
                  })),
                }),
            ...(temperature === undefined ? {} : { temperature }),
          },
          {
            signal: requestSignal(request.signal),
            timeout: settings.timeoutMs,
            fetchOptions: http.fetchOptions(settings.timeoutMs),
          },
        );
      } catch (error) {
        const cut = http.takeCut();
        const fault = cut ? { kind: 'cut' as const, ...cut } : toProviderFault(error, Anthropic);
        if (!fault) throw error;
        throw toProviderFailure(fault, callContext(base, settings, startedAt), Date.now());
      }
      return readMessage(reply, spec);
    },
  };
}
