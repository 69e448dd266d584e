// Asks a reviewer or judge model for its structured verdict. A malformed verdict is asked for again once, then
// counts as a model problem: it never passes silently. Each ask goes through the coder's model call (counted when
// sent, failed or not; an unreachable server waited out; aborted with the activity).
import { DEFAULT_MODEL_WAIT_MS } from '../../domain/model-wait.js';
import type { CoderTelemetry } from '../../domain/records.js';
import { emptyTelemetry } from '../../domain/telemetry.js';
import { parseVerdict, type Verdict } from '../../domain/verdict.js';
import { callModel } from '../coder/model-call.js';
import { ModelProblem, type ChatMessage, type ModelProvider } from './types.js';

const answerShape =
  'Reply with only one JSON object: {"verdict": "pass" | "fail", "findings": [{"file": "path", "line": 1, "reason": "why"}]}. ' +
  'Give findings only for real problems; file and line are optional.';

export const verdictPrompts = {
  reviewer: `You review a code change made by an automated coder to reach a goal. Check that it is correct, minimal, and does not weaken tests. ${answerShape}`,
  judge: `You judge whether an attempt reached its goal, from the change and the test evidence. ${answerShape}`,
} as const;

export interface VerdictUsageCount {
  modelRequests: number;
  inputTokens: number;
  outputTokens: number;
  /** Requests that failed (error, timeout, unreachable); each is in `modelRequests` too. */
  failedModelRequests: number;
  /** Waits for an unreachable or restarting model server. */
  modelServerWaits: number;
  /** Requests whose tokens are unknown (no usage came back); absent when none. */
  unmeteredModelRequests?: number;
}

/** The verdict's counts out of the model call's counters. */
export function verdictUsageOf(counters: CoderTelemetry): VerdictUsageCount {
  const { modelRequests, inputTokens, outputTokens, failedModelRequests = 0, modelServerWaits = 0 } = counters;
  const unmetered = counters.unmeteredModelRequests;
  return {
    ...{ modelRequests, inputTokens, outputTokens, failedModelRequests, modelServerWaits },
    ...(unmetered ? { unmeteredModelRequests: unmetered } : {}),
  };
}

/** A valid verdict, or the model problem after two bad answers; usage either way (for the budget). */
export type VerdictReply =
  { ok: true; verdict: Verdict; usage: VerdictUsageCount } | { ok: false; problem: string; usage: VerdictUsageCount };

/** Asks the model (at most twice) for a valid verdict; infrastructure failures of the provider propagate. */
export async function askForVerdict(input: {
  provider: ModelProvider;
  role: 'reviewer' | 'judge';
  systemPrompt?: string;
  question: string;
  /** Counters updated in place as each request is sent (a failure thrown out of here has counted its requests). */
  counters?: CoderTelemetry;
  /** How long an unreachable server is waited for (default DEFAULT_MODEL_WAIT_MS). */
  waitBoundMs?: number;
  signal?: AbortSignal;
  heartbeat?: (lastModelError?: string) => void;
}): Promise<VerdictReply> {
  const messages: ChatMessage[] = [
    { role: 'system', content: input.systemPrompt ?? verdictPrompts[input.role] },
    { role: 'user', content: input.question },
  ];
  const counters = input.counters ?? emptyTelemetry();
  const call = {
    ...{ provider: input.provider, telemetry: counters, signal: input.signal, heartbeat: input.heartbeat },
    waitBoundMs: input.waitBoundMs ?? DEFAULT_MODEL_WAIT_MS,
  };
  let problem = '';
  for (let ask = 1; ask <= 2; ask++) {
    let content: string;
    try {
      const turn = await callModel({ ...call, request: { role: input.role, messages: [...messages], tools: [] } });
      content = turn.content;
    } catch (error) {
      // An empty or unreadable reply is a bad answer like any other: asked again once.
      if (!(error instanceof ModelProblem)) throw error;
      problem = error.message.replace(/^model problem: /, '');
      continue;
    }
    const parsed = parseVerdict(content);
    if (parsed.success) return { ok: true, verdict: parsed.data, usage: verdictUsageOf(counters) };
    problem = parsed.error;
    messages.push({ role: 'assistant', content, toolCalls: [] });
    messages.push({ role: 'user', content: `That verdict was not valid: ${parsed.error}. ${answerShape}` });
  }
  return {
    ok: false,
    problem: `model problem: the ${input.role} gave no valid verdict after 2 asks: ${problem}`,
    usage: verdictUsageOf(counters),
  };
}
