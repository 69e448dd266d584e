// Budgets per task, across all attempts: model calls, tokens, cost and wall time. Pure: the workflow passes
// the attempts and the elapsed time in, and checks before every coder step. No zod here: the task workflow imports
// this module, and every workflow execution evaluates its modules again (workflows/index.ts); the spec's schema
// is in budget-schema.ts.
/** USD per million tokens, input and output. */
export interface Price {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
}

/** The budgets of one task (budget-schema.ts validates a spec's field into exactly this). */
export interface Budgets {
  maxModelCalls: number;
  /** Input plus output tokens. */
  maxTokens: number;
  maxCostUsd: number;
  maxWallTimeMs: number;
  /** Extra or overriding prices, keyed by model (`gpt-4o`) or full spec (`openai:gpt-4o`); a key matches as a prefix. */
  prices: Record<string, Price>;
}

export const DEFAULT_BUDGETS = {
  maxModelCalls: 200,
  maxTokens: 2_000_000,
  maxCostUsd: 20,
  maxWallTimeMs: 2 * 60 * 60 * 1000,
} as const;

/** The task's budgets, or the defaults for a spec written before budgets existed (runs already in flight). */
export function resolveBudgets(budgets: Budgets | undefined): Budgets {
  // What budgetsSchema.parse({}) gives (a unit test holds the two together), without evaluating zod in the workflow.
  return budgets ?? { ...DEFAULT_BUDGETS, prices: {} };
}

/** Built-in prices (USD per million tokens, list prices when written); extend or override with `budgets.prices`. */
export const defaultPrices: Readonly<Record<string, Price>> = {
  'gpt-4o-mini': { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 },
  'gpt-4o': { inputPerMTokUsd: 2.5, outputPerMTokUsd: 10 },
  'gpt-4.1-mini': { inputPerMTokUsd: 0.4, outputPerMTokUsd: 1.6 },
  'gpt-4.1': { inputPerMTokUsd: 2, outputPerMTokUsd: 8 },
  'o3-mini': { inputPerMTokUsd: 1.1, outputPerMTokUsd: 4.4 },
  'claude-3-5-haiku': { inputPerMTokUsd: 0.8, outputPerMTokUsd: 4 },
  'claude-3-5-sonnet': { inputPerMTokUsd: 3, outputPerMTokUsd: 15 },
  'claude-sonnet-4': { inputPerMTokUsd: 3, outputPerMTokUsd: 15 },
  'claude-opus-4': { inputPerMTokUsd: 15, outputPerMTokUsd: 75 },
};

/** What a task has spent so far. */
export interface BudgetSpend {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  wallTimeMs: number;
}

/** The price of a model spec: longest matching key of the user's table, then of the built-in one; scripted and unknown models cost 0. */
export function priceOf(modelSpec: string, prices: Readonly<Record<string, Price>> = {}): Price {
  const model = modelSpec.slice(modelSpec.indexOf(':') + 1);
  for (const table of [prices, defaultPrices]) {
    const keys = Object.keys(table).filter((key) => modelSpec.startsWith(key) || model.startsWith(key));
    const best = keys.sort((a, b) => b.length - a.length)[0];
    if (best !== undefined) return table[best] as Price;
  }
  return { inputPerMTokUsd: 0, outputPerMTokUsd: 0 };
}

/** One coder run's usage: the model it used and its counters. */
export interface ModelUsage {
  modelSpec: string;
  modelRequests: number;
  inputTokens: number;
  outputTokens: number;
}

/** Sums usage over all runs so far, pricing each by its own model. */
export function sumSpend(
  usages: readonly ModelUsage[],
  prices: Readonly<Record<string, Price>>,
  wallTimeMs: number,
): BudgetSpend {
  const spend: BudgetSpend = { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, wallTimeMs };
  for (const usage of usages) {
    const price = priceOf(usage.modelSpec, prices);
    spend.modelCalls += usage.modelRequests;
    spend.inputTokens += usage.inputTokens;
    spend.outputTokens += usage.outputTokens;
    spend.costUsd +=
      (usage.inputTokens * price.inputPerMTokUsd + usage.outputTokens * price.outputPerMTokUsd) / 1_000_000;
  }
  spend.costUsd = Math.round(spend.costUsd * 1e6) / 1e6;
  return spend;
}

/** The first exhausted budget, as a reason the failure classifier reads (`budget exhausted: ...`), or undefined. */
export function findExhaustedBudget(budgets: Budgets, spend: BudgetSpend): string | undefined {
  const tokens = spend.inputTokens + spend.outputTokens;
  if (spend.modelCalls >= budgets.maxModelCalls)
    return `budget exhausted: ${spend.modelCalls} of ${budgets.maxModelCalls} model calls used (budgets.maxModelCalls)`;
  if (tokens >= budgets.maxTokens)
    return `budget exhausted: ${tokens} of ${budgets.maxTokens} tokens used (budgets.maxTokens)`;
  if (spend.costUsd >= budgets.maxCostUsd)
    return `budget exhausted: $${spend.costUsd} of $${budgets.maxCostUsd} spent (budgets.maxCostUsd)`;
  if (spend.wallTimeMs >= budgets.maxWallTimeMs)
    return `budget exhausted: ${spend.wallTimeMs} of ${budgets.maxWallTimeMs} ms of wall time used (budgets.maxWallTimeMs)`;
  return undefined;
}

/** What the next coder run may still spend: calls, tokens (also bounded by the money left at its model's price) and a deadline. */
export function coderAllowance(
  budgets: Budgets,
  spend: BudgetSpend,
  modelSpec: string,
  nowMs: number,
): { modelCalls: number; tokens: number; deadlineAt: number } {
  const price = priceOf(modelSpec, budgets.prices);
  // Priced at the dearer of input and output, so the allowance never buys more than the money left.
  const perMTok = Math.max(price.inputPerMTokUsd, price.outputPerMTokUsd);
  const tokensLeft = Math.max(0, budgets.maxTokens - spend.inputTokens - spend.outputTokens);
  const affordable =
    perMTok > 0 ? Math.floor((Math.max(0, budgets.maxCostUsd - spend.costUsd) * 1_000_000) / perMTok) : tokensLeft;
  return {
    modelCalls: Math.max(0, budgets.maxModelCalls - spend.modelCalls),
    tokens: Math.min(tokensLeft, affordable),
    deadlineAt: nowMs + Math.max(0, budgets.maxWallTimeMs - spend.wallTimeMs),
  };
}
