// The coder's context window: asked of the server once (llama.cpp, Ollama), else the person's setting, else the
// default (domain/model-context.ts); the prompt is fitted to it, and a prompt that still does not fit fails as
// ContextOverflow with a message naming the window, the prompt's size and the setting to change.
import { ApplicationFailure } from '@temporalio/common';
import {
  contextOverflowMessage,
  planContext,
  windowInContextError,
  type ContextPlan,
} from '../../domain/model-context.js';
import { defaultMaxTokens } from '../../domain/model-limits.js';
import { estimateTokens } from '../models/estimate-tokens.js';
import type { ChatMessage, ModelProvider, ToolSpec } from '../models/types.js';

export interface ContextInputs {
  provider: ModelProvider;
  /** The window a person set (variable or agent version), used when the server does not say. */
  setting?: { tokens: number; name: string };
  /** The names a person can set it by (named in the overflow message). */
  settingNames: string[];
  systemPrompt: string;
  tools: ToolSpec[];
  signal?: AbortSignal;
}

/** Estimated tokens of the tool schemas every request carries. */
export const toolTokensOf = (tools: readonly ToolSpec[]): number => estimateTokens(JSON.stringify(tools));

const promptTokensOf = (messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number =>
  estimateTokens(JSON.stringify(messages)) + toolTokensOf(tools);

/** The plan for this run: the server's window when it reports one. */
export async function planCoderContext(input: ContextInputs): Promise<ContextPlan> {
  const serverWindow = await input.provider.serverContextWindow?.(input.signal);
  return planContext({
    serverWindow,
    setting: input.setting,
    maxTokens: input.provider.maxTokens ?? defaultMaxTokens.coder,
    fixedTokens: estimateTokens(input.systemPrompt) + toolTokensOf(input.tools),
  });
}

/** The plan after the server refused a prompt made to fit `plan`: its own window when it names one, else a quarter less. */
export function tightenPlan(plan: ContextPlan, serverMessage: string, input: ContextInputs): ContextPlan {
  const named = windowInContextError(serverMessage);
  const window = named !== undefined && named < plan.window ? named : Math.floor(plan.window * 0.75);
  const tightened = planContext({
    serverWindow: window,
    maxTokens: input.provider.maxTokens ?? defaultMaxTokens.coder,
    fixedTokens: estimateTokens(input.systemPrompt) + toolTokensOf(input.tools),
  });
  return {
    ...tightened,
    source: plan.source,
    sourceName: `${plan.sourceName}, tightened after the server refused the prompt`,
  };
}

/** The failure when the prompt does not fit `plan` (non-retryable: a setting, not another attempt, changes it). */
export function contextOverflow(plan: ContextPlan, promptTokens: number, input: ContextInputs, detail?: string) {
  return ApplicationFailure.create({
    type: 'ContextOverflow',
    nonRetryable: true,
    message: contextOverflowMessage({ plan, promptTokens, settingNames: input.settingNames, detail }),
  });
}

/** Throws ContextOverflow when `messages` (already fitted: only the goal and the latest evidence left) exceed the plan. */
export function assertPromptFits(messages: readonly ChatMessage[], plan: ContextPlan, input: ContextInputs): void {
  const tokens = promptTokensOf(messages, input.tools);
  if (tokens > plan.promptBudget) throw contextOverflow(plan, tokens, input);
}

/** True for the provider's failure saying the prompt is longer than the server's window. */
export const isContextOverflow = (error: unknown): error is ApplicationFailure =>
  error instanceof ApplicationFailure && error.type === 'ContextOverflow';

export { promptTokensOf };
