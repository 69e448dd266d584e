// Token estimates: scripted turns' usage (a stand-in for a model has no tokenizer) and the prompt sizes fitted to a
// context window. A real server's request without usage is never estimated: its tokens are unknown (model-call.ts).
import type { AssistantTurn, ChatMessage, TokenUsage } from './types.js';

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

/** Estimates the usage of one model call from the request messages and the reply. */
export function estimateUsage(
  messages: readonly ChatMessage[],
  reply: Pick<AssistantTurn, 'content' | 'toolCalls'>,
): TokenUsage {
  const input = messages.reduce((sum, message) => sum + messageText(message).length, 0);
  const output = reply.content.length + (reply.toolCalls.length > 0 ? JSON.stringify(reply.toolCalls).length : 0);
  return { inputTokens: Math.ceil(input / 4), outputTokens: Math.ceil(output / 4) };
}
