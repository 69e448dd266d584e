// Running one model turn's tool calls: calls written as text are taken when the reply has no native ones, a call cut
// off by the output limit is answered with a request for a shorter one (never run), and the turn's facts are handed
// to the no-progress watch (domain/no-progress.ts).
import { callKey, type TurnFacts } from '../../domain/no-progress.js';
import { readTextToolCalls } from '../../domain/text-tool-calls.js';
import type { AssistantTurn, ChatMessage, ToolCall } from '../models/types.js';
import { runToolCall, type ToolCaller } from './tools/registry.js';
import type { ToolContext } from './tools/types.js';

const nudge = 'You replied without calling a tool. Use the tools to make the change, then call finish with a summary.';

/** `turn` with the tool calls its text holds when it has no native ones (counted as text tool calls). */
export function withTextToolCalls(
  turn: AssistantTurn,
  toolNames: readonly string[],
  step: number,
  context: ToolContext,
): AssistantTurn {
  if (turn.toolCalls.length > 0 || turn.content.trim() === '') return turn;
  const found = readTextToolCalls(turn.content, toolNames);
  if (found.length === 0) return turn;
  context.telemetry.textToolCalls = (context.telemetry.textToolCalls ?? 0) + found.length;
  const toolCalls: ToolCall[] = found.map((call, index) => ({ id: `text_${step}_${index}`, ...call }));
  return { ...turn, toolCalls };
}

/** The reply to a call whose arguments are not a JSON object: why nothing ran, and how to call again. */
function truncatedReply(call: ToolCall, turn: AssistantTurn, maxTokens: number | undefined): string {
  const cut =
    turn.finishReason === 'length'
      ? `your reply reached the output limit${maxTokens === undefined ? '' : ` of ${maxTokens} tokens`} and the call was cut off`
      : 'its arguments are not a complete JSON object';
  return (
    `Error: the call to ${call.name} was not run: ${cut}. Make a shorter call: change a few lines at a time with ` +
    'replace_in_file, or write a long file in several smaller steps.'
  );
}

/**
 * Runs the turn's calls in order until `finish`; returns its summary (when called) and the turn's facts. Messages for
 * the model (tool replies, the nudge after a turn without calls) are appended to `messages`.
 */
export async function runTurnCalls(input: {
  turn: AssistantTurn;
  messages: ChatMessage[];
  context: ToolContext;
  caller: ToolCaller;
  maxTokens?: number;
  signal?: AbortSignal;
}): Promise<{ finished?: string; facts: TurnFacts }> {
  const { turn, messages, context } = input;
  const before = { ...context.telemetry };
  let finished: string | undefined;
  let truncated = false;
  for (const call of turn.toolCalls) {
    input.signal?.throwIfAborted();
    if (call.invalidArguments !== undefined) {
      truncated = true;
      context.telemetry.truncatedToolCalls = (context.telemetry.truncatedToolCalls ?? 0) + 1;
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: truncatedReply(call, turn, input.maxTokens),
      });
      continue;
    }
    const outcome = await runToolCall(call, context, input.caller);
    messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: outcome.reply });
    if (outcome.finished) {
      finished = outcome.finished.summary;
      break;
    }
  }
  if (turn.toolCalls.length === 0) {
    const cut = turn.finishReason === 'length';
    messages.push({ role: 'user', content: cut ? `Your reply was cut off by the output limit. ${nudge}` : nudge });
    truncated = cut;
  }
  const after = context.telemetry;
  return {
    ...(finished === undefined ? {} : { finished }),
    facts: {
      calls: turn.toolCalls.map((call) => callKey(call.name, call.arguments)),
      changed: after.mutationOperations > before.mutationOperations,
      ranTests: (after.inAttemptTestRuns ?? 0) > (before.inAttemptTestRuns ?? 0),
      truncated,
    },
  };
}
