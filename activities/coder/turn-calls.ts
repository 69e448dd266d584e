// Running one model turn's tool calls: calls written as text are taken when the reply has no native ones, a call cut
// off by the output limit is answered with a request for a shorter one (never run), a call of a tool that does not
// exist is answered with the tools that do, a finish after a failed call of the same reply is not run, and the turn's
// facts are handed to the no-progress watch (domain/no-progress.ts).
import { callKey, replyKey, type TurnFacts } from '../../domain/no-progress.js';
import { endsInsideCall, readTextToolCalls, unknownTextToolNames } from '../../domain/text-tool-calls.js';
import type { AssistantTurn, ChatMessage, ToolCall } from '../models/types.js';
import { runToolCall, toolsFor, type ToolCaller } from './tools/registry.js';
import type { ToolContext } from './tools/types.js';

const nudge = 'You replied without calling a tool. Use the tools to make the change, then call finish with a summary.';

// Calls run from one reply: the prompts ask for one; a reply of edit, test run and finish is three.
const MAX_CALLS_PER_REPLY = 5;
const duplicateCall = 'error: not run: the same call (tool and arguments) came earlier in this reply.';
const tooManyCalls = `error: not run: at most ${MAX_CALLS_PER_REPLY} calls of one reply are run; make one call a reply.`;

const finishAfterFailure =
  'error: finish was not run: a call before it in this reply failed (see its answer), so the work it announces was ' +
  'not done. Fix what that answer says, check with the tools, then call finish in a reply of its own.';

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

/** The answer to a reply that wrote calls of tools that do not exist: the names it used and the ones there are. */
function unknownToolsReply(names: string[], offered: string[]): string {
  const quoted = names.map((name) => `'${name}'`).join(', ');
  return (
    `There is no tool named ${quoted}: nothing was run. The tools are: ${offered.join(', ')}. Call one of them by ` +
    `its exact name, e.g. {"name": "read_file", "arguments": {"path": "<file>"}}.`
  );
}

/** What the model is told after a reply with no call it could run. */
function noCallReply(turn: AssistantTurn, offered: string[]): { content: string; truncated: boolean } {
  const unknown = unknownTextToolNames(turn.content, offered);
  if (unknown.length > 0) return { content: unknownToolsReply(unknown, offered), truncated: false };
  if (turn.finishReason !== 'length') return { content: nudge, truncated: false };
  // Cut inside a call: the call was lost to the limit. Cut in prose: no call was made, and none was cut.
  if (endsInsideCall(turn.content))
    return {
      content: `Your reply was cut off by the output limit in the middle of a tool call, so it was not run. Make a shorter call: change a few lines at a time with replace_in_file.`,
      truncated: true,
    };
  return { content: `Your reply was cut off by the output limit before it called a tool. ${nudge}`, truncated: false };
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
  const offered = toolsFor(input.caller.capabilities, input.caller.tools).map((tool) => tool.spec.name);
  let finished: string | undefined;
  let truncated = false;
  // A reply that plans edit, test, finish in one go: when a call before finish failed, the finish rests on it.
  let failedBefore = false;
  // The calls of this reply run so far (a small model at a higher temperature wrote one plan 20 times in one reply).
  const calledBefore = new Set<string>();
  // Well formed: the reply called a tool it was offered, with arguments that are a JSON object (the eval's rate).
  if (turn.toolCalls.some((call) => call.invalidArguments === undefined && offered.includes(call.name)))
    context.telemetry.offeredToolReplies = (context.telemetry.offeredToolReplies ?? 0) + 1;
  for (const call of turn.toolCalls) {
    input.signal?.throwIfAborted();
    if (call.invalidArguments !== undefined) {
      truncated = true;
      failedBefore = true;
      context.telemetry.truncatedToolCalls = (context.telemetry.truncatedToolCalls ?? 0) + 1;
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: truncatedReply(call, turn, input.maxTokens),
      });
      continue;
    }
    const key = callKey(call.name, call.arguments);
    const skipped = calledBefore.has(key)
      ? duplicateCall
      : calledBefore.size >= MAX_CALLS_PER_REPLY
        ? tooManyCalls
        : undefined;
    calledBefore.add(key);
    if (skipped !== undefined) {
      context.telemetry.refusedToolCalls = (context.telemetry.refusedToolCalls ?? 0) + 1;
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: skipped });
      continue;
    }
    if (call.name === 'finish' && failedBefore) {
      context.telemetry.refusedToolCalls = (context.telemetry.refusedToolCalls ?? 0) + 1;
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: finishAfterFailure });
      continue;
    }
    const outcome = await runToolCall(call, context, input.caller);
    messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: outcome.reply });
    if (/^error\b/i.test(outcome.reply)) failedBefore = true;
    if (outcome.finished) {
      finished = outcome.finished.summary;
      break;
    }
  }
  if (turn.toolCalls.length === 0) {
    const answer = noCallReply(turn, offered);
    messages.push({ role: 'user', content: answer.content });
    truncated = answer.truncated;
  }
  const after = context.telemetry;
  return {
    ...(finished === undefined ? {} : { finished }),
    facts: {
      calls: turn.toolCalls.map((call) => callKey(call.name, call.arguments)),
      reply: replyKey(turn.content, turn.toolCalls),
      changed: after.mutationOperations > before.mutationOperations,
      ranTests: (after.inAttemptTestRuns ?? 0) > (before.inAttemptTestRuns ?? 0),
      truncated,
    },
  };
}
