// The schema of a task spec's `budgets` field (validated where specs are parsed, never in a workflow).
import { z } from 'zod';
import { DEFAULT_BUDGETS, type Budgets, type Price } from './budgets.js';

/** USD per million tokens, input and output. */
export const priceSchema = z.strictObject({
  inputPerMTokUsd: z.number().min(0),
  outputPerMTokUsd: z.number().min(0),
}) satisfies z.ZodType<Price>;

/** The budgets of one task; every limit has a safe default so no task can spend without limit. */
export const budgetsSchema = z.strictObject({
  maxModelCalls: z.number().int().min(1).default(DEFAULT_BUDGETS.maxModelCalls),
  /** Input plus output tokens. */
  maxTokens: z.number().int().min(1).default(DEFAULT_BUDGETS.maxTokens),
  maxCostUsd: z.number().positive().default(DEFAULT_BUDGETS.maxCostUsd),
  maxWallTimeMs: z.number().int().min(1_000).default(DEFAULT_BUDGETS.maxWallTimeMs),
  /** Extra or overriding prices, keyed by model (`gpt-4o`) or full spec (`openai:gpt-4o`); a key matches as a prefix. */
  prices: z.record(z.string().min(1), priceSchema).default(() => ({})),
}) satisfies z.ZodType<Budgets>;

// The plain types in budgets.ts (read by the workflow without zod) and the schema's output are the same both ways.
type Parsed = z.infer<typeof budgetsSchema>;
export const budgetTypesAgree: [Budgets] extends [Parsed] ? ([Parsed] extends [Budgets] ? true : never) : never = true;
