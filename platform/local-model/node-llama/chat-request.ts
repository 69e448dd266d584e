// An OpenAI chat-completions request as taskloop's node-llama-cpp server reads it: checked field by field, so a bad
// request gets a 400 naming the field (as llama-server answers), and turned into what the chat template renders.

/** What the template is given for one message: tool-call arguments as objects (Qwen's template writes them `tojson`). */
export interface TemplateMessage {
  role: string;
  content: string;
  tool_calls?: { type: 'function'; function: { name: string; arguments: unknown } }[];
  tool_call_id?: string;
}

export interface TemplateTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

export interface ChatRequest {
  messages: TemplateMessage[];
  tools: TemplateTool[];
  maxTokens?: number;
  temperature?: number;
  seed?: number;
  topP?: number;
}

export class ChatRequestError extends Error {
  override name = 'ChatRequestError';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Arguments sent as a JSON string (the protocol's way) become the object they hold; anything else stays as sent. */
function argumentsOf(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Text parts (`[{type: "text", text}]`) joined; null (an assistant turn of tool calls only) as empty text. */
function contentOf(content: unknown, where: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part: unknown) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
  throw new ChatRequestError(`${where}.content must be a string or an array of text parts`);
}

function readMessage(value: unknown, index: number): TemplateMessage {
  const where = `messages[${index}]`;
  if (!isObject(value) || typeof value.role !== 'string')
    throw new ChatRequestError(`${where} must be an object with a role`);
  const message: TemplateMessage = { role: value.role, content: contentOf(value.content, where) };
  if (Array.isArray(value.tool_calls) && value.tool_calls.length > 0)
    message.tool_calls = value.tool_calls.map((call: unknown, callIndex) => {
      const fn = isObject(call) && isObject(call.function) ? call.function : undefined;
      if (!fn || typeof fn.name !== 'string')
        throw new ChatRequestError(`${where}.tool_calls[${callIndex}].function.name must be a string`);
      return { type: 'function' as const, function: { name: fn.name, arguments: argumentsOf(fn.arguments) } };
    });
  if (typeof value.tool_call_id === 'string') message.tool_call_id = value.tool_call_id;
  return message;
}

function readTools(value: unknown): TemplateTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ChatRequestError('tools must be an array');
  return value.map((tool: unknown, index) => {
    const fn = isObject(tool) && isObject(tool.function) ? tool.function : undefined;
    if (!fn || typeof fn.name !== 'string')
      throw new ChatRequestError(`tools[${index}].function.name must be a string`);
    return { type: 'function' as const, function: fn as TemplateTool['function'] };
  });
}

function optionalNumber(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new ChatRequestError(`${field} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value;
}

/** The request in `body`, or a ChatRequestError naming what is wrong. Streaming is refused: taskloop never asks it. */
export function readChatRequest(body: unknown): ChatRequest {
  if (!isObject(body)) throw new ChatRequestError('the body must be a JSON object');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw new ChatRequestError('messages must be a non-empty array');
  if (body.stream === true)
    throw new ChatRequestError('stream: true is not served here; send the request without it (taskloop never streams)');
  const maxTokens =
    optionalNumber(body, 'max_tokens', 1, 1_000_000) ?? optionalNumber(body, 'max_completion_tokens', 1, 1_000_000);
  const request: ChatRequest = { messages: body.messages.map(readMessage), tools: readTools(body.tools) };
  const temperature = optionalNumber(body, 'temperature', 0, 2);
  const seed = optionalNumber(body, 'seed', -(2 ** 53), 2 ** 53);
  const topP = optionalNumber(body, 'top_p', 0, 1);
  if (maxTokens !== undefined) request.maxTokens = Math.floor(maxTokens);
  if (temperature !== undefined) request.temperature = temperature;
  if (seed !== undefined) request.seed = seed;
  if (topP !== undefined) request.topP = topP;
  return request;
}
