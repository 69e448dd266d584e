// The tool calls in a reply the chat template asked for as `<tool_call>{"name": …, "arguments": …}</tool_call>`
// (Qwen2.5's and Hermes' format, as llama-server's --jinja reads them): each well-formed block becomes a call, and
// the rest of the text stays the reply's content. A block that is not such JSON stays text, for the coder's own
// reading of text calls to judge.

export interface ParsedToolCall {
  name: string;
  /** The arguments as JSON text, as the protocol carries them. */
  arguments: string;
}

const block = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;

function readCall(json: string): ParsedToolCall | undefined {
  try {
    const value = JSON.parse(json) as { name?: unknown; arguments?: unknown; parameters?: unknown };
    if (typeof value !== 'object' || value === null || typeof value.name !== 'string') return undefined;
    const args = value.arguments ?? value.parameters ?? {};
    return { name: value.name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
  } catch {
    return undefined;
  }
}

/** Splits `text` into its `<tool_call>` calls and the remaining content (trimmed). */
export function splitToolCalls(text: string): { content: string; calls: ParsedToolCall[] } {
  const calls: ParsedToolCall[] = [];
  const content = text.replace(block, (whole, json: string) => {
    const call = readCall(json);
    if (!call) return whole;
    calls.push(call);
    return '';
  });
  return { content: calls.length === 0 ? text : content.trim(), calls };
}
