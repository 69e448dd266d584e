// Token estimates for providers that report no usage, so budgets and telemetry still have numbers.
import type { AssistantTurn, ChatMessage, TokenUsage, ToolSpec } from './types.js';

/** Rough tokens of a text: one per four characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function messageText(message: ChatMessage): string {
  if (message.role === 'assistant' && message.toolCalls.length > 0) {
    return message.content + JSON.stringify(message.toolCalls);
  }
  return message.content;
}

/** Estimates the prompt tokens of a request: its messages (tool calls too) and the tool schemas it carries. */
export function estimateRequestTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number {
  const text = messages.reduce((sum, message) => sum + messageText(message).length, 0);
  return Math.ceil(text / 4) + (tools.length > 0 ? estimateTokens(JSON.stringify(tools)) : 0);
}

/** Estimates the usage of one model call from the request messages and the reply. */
export function estimateUsage(
  messages: readonly ChatMessage[],
  reply: Pick<AssistantTurn, 'content' | 'toolCalls'>,
): TokenUsage {
  const input = messages.reduce((sum, message) => sum + messageText(message).length, 0);
  const output = reply.content.length + (reply.toolCalls.length > 0 ? JSON.stringify(reply.toolCalls).length : 0);
  return { inputTokens: Math.ceil(input / 4), outputTokens: Math.ceil(output / 4) };
}
