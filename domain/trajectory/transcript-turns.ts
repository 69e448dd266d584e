// The coder's transcript (activities/coder/progress.ts saves it as JSON: OpenAI-like chat messages) read as turns:
// each assistant message with its tool calls, each call paired with the tool's reply by its call id.
import { z } from 'zod';
import { argumentsExcerpt, excerpt } from './excerpt.js';

/** How much of each part a turn keeps (the whole transcript stays on the worker's disk). */
export const turnLimits = { text: 600, arguments: 400, reply: 800, turns: 300 } as const;

const messageSchema = z.union([
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullish(),
    toolCalls: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          arguments: z.record(z.string(), z.unknown()),
          invalidArguments: z.string().optional(),
        }),
      )
      .default([]),
  }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string() }),
]);
const transcriptSchema = z.array(messageSchema);

export interface ToolCallStep {
  name: string;
  /** The arguments as JSON, cut to `turnLimits.arguments`. */
  arguments: string;
  /** The tool's reply, cut to `turnLimits.reply`; absent when the run stopped before it answered. */
  reply?: string;
}

export interface Turn {
  /** 1-based: the model's Nth reply in this attempt. */
  index: number;
  text: string;
  calls: ToolCallStep[];
}

/** A run of the tests the coder asked for inside its attempt (the `run_tests` tool). */
export interface InAttemptTestRun {
  turn: number;
  arguments: string;
  /** The reply's first line: `tests passed: 3 total, …` or why it did not run. */
  result: string;
}

/** A message the model got that is not a tool's reply: the system prompt, the task as sent, a later note. */
export interface ToldMessage {
  role: 'system' | 'user';
  /** The turn it came before (1: the opening messages). */
  beforeTurn: number;
  /** Whole: the goal as sent, the files shown, a retry's evidence are all in it. */
  content: string;
}

export interface TranscriptTurns {
  /** The task as the coder was first told it (the first user message), whole. */
  prompt: string;
  /** Every system and user message the model got, whole, in order. */
  messages: ToldMessage[];
  turns: Turn[];
  /** Turns left out past `turnLimits.turns`. */
  turnsLeftOut: number;
  testRuns: InAttemptTestRun[];
}

export type ParsedTranscript = { success: true; data: TranscriptTurns } | { success: false; error: string };

/** Reads a transcript's JSON text into turns; an error names what was wrong, never throws. */
export function parseTranscript(text: string): ParsedTranscript {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { success: false, error: `the transcript is not JSON (${(error as Error).message})` };
  }
  const parsed = transcriptSchema.safeParse(json);
  if (!parsed.success)
    return {
      success: false,
      error: `the transcript is not a list of chat messages: ${parsed.error.issues[0]?.message}`,
    };
  return { success: true, data: turnsOf(parsed.data) };
}

function turnsOf(messages: z.infer<typeof transcriptSchema>): TranscriptTurns {
  const replies = new Map<string, string>();
  for (const message of messages) if (message.role === 'tool') replies.set(message.toolCallId, message.content);
  const prompt = messages.find((message) => message.role === 'user')?.content ?? '';
  const all: Turn[] = [];
  const told: ToldMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'user')
      told.push({ role: message.role, beforeTurn: all.length + 1, content: message.content });
    if (message.role !== 'assistant') continue;
    all.push({
      index: all.length + 1,
      text: excerpt((message.content ?? '').trim(), turnLimits.text),
      calls: message.toolCalls.map((call) => {
        const reply = replies.get(call.id);
        return {
          name: call.name,
          arguments:
            call.invalidArguments === undefined
              ? argumentsExcerpt(call.arguments, turnLimits.arguments)
              : excerpt(call.invalidArguments, turnLimits.arguments),
          ...(reply === undefined ? {} : { reply: excerpt(reply, turnLimits.reply) }),
        };
      }),
    });
  }
  const testRuns = all.flatMap((turn) =>
    turn.calls
      .filter((call) => call.name === 'run_tests')
      .map((call) => ({
        turn: turn.index,
        arguments: call.arguments,
        result: call.reply?.split('\n')[0] ?? '(no reply: the run stopped first)',
      })),
  );
  return {
    prompt,
    messages: told,
    turns: all.slice(0, turnLimits.turns),
    turnsLeftOut: Math.max(0, all.length - turnLimits.turns),
    testRuns,
  };
}
