// Asks a reviewer or judge model for its structured verdict. A malformed verdict is asked for again once, then
// counts as a model problem: it never passes silently.
import { parseVerdict, type Verdict } from '../../domain/verdict.js';
import { estimateUsage } from './estimate-tokens.js';
import { ModelProblem, type ChatMessage, type ModelProvider, type TokenUsage } from './types.js';

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
}): Promise<VerdictReply> {
  const messages: ChatMessage[] = [
    { role: 'system', content: input.systemPrompt ?? verdictPrompts[input.role] },
    { role: 'user', content: input.question },
  ];
  const usage = { modelRequests: 0, inputTokens: 0, outputTokens: 0 };
  let problem = '';
  for (let ask = 1; ask <= 2; ask++) {
    usage.modelRequests += 1;
    let content: string;
    try {
      const turn = await input.provider.complete({ role: input.role, messages: [...messages], tools: [] });
      const used: TokenUsage = turn.usage ?? estimateUsage(messages, turn);
      usage.inputTokens += used.inputTokens;
      usage.outputTokens += used.outputTokens;
      content = turn.content;
    } catch (error) {
      // An empty or unreadable reply is a bad answer like any other: asked again once.
      if (!(error instanceof ModelProblem)) throw error;
      problem = error.message.replace(/^model problem: /, '');
      continue;
    }
    const parsed = parseVerdict(content);
    if (parsed.success) return { ok: true, verdict: parsed.data, usage };
    problem = parsed.error;
    messages.push({ role: 'assistant', content, toolCalls: [] });
    messages.push({ role: 'user', content: `That verdict was not valid: ${parsed.error}. ${answerShape}` });
  }
  return {
    ok: false,
    problem: `model problem: the ${input.role} gave no valid verdict after 2 asks: ${problem}`,
    usage,
  };
}
