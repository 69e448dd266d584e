import { describe, expect, it } from 'vitest';
import { budgetsSchema } from '../../../domain/budget-schema.js';
import {
  coderAllowance,
  DEFAULT_BUDGETS,
  findExhaustedBudget,
  priceOf,
  resolveBudgets,
  sumSpend,
} from '../../../domain/budgets.js';
import { parseTaskSpec } from '../../../domain/task-spec.js';
import { collectModelUsage, type AttemptRecord } from '../../../domain/task-state.js';
import { emptyTelemetry } from '../../../domain/telemetry.js';

const budgets = (input: Record<string, unknown> = {}) => budgetsSchema.parse(input);
const spend = (over: Partial<ReturnType<typeof sumSpend>> = {}) => ({
  modelCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  wallTimeMs: 0,
  ...over,
});

describe('budgets in the task spec', () => {
  it('gives every task safe default limits when none are written', () => {
    const parsed = parseTaskSpec({ id: 't1', repo: '/r', goal: 'g', models: { coder: 'openai:gpt-4o' } });
    expect(parsed.success && parsed.data.budgets).toEqual({ ...DEFAULT_BUDGETS, prices: {} });
    expect(resolveBudgets(undefined)).toEqual({ ...DEFAULT_BUDGETS, prices: {} });
    // resolveBudgets writes the defaults out (no zod in the workflow): they must stay what the schema gives.
    expect(resolveBudgets(undefined)).toEqual(budgetsSchema.parse({}));
  });

  it('refuses a misspelt budget field, naming it', () => {
    const parsed = parseTaskSpec({
      id: 't1',
      repo: '/r',
      goal: 'g',
      models: { coder: 'openai:gpt-4o' },
      budgets: { maxCalls: 3 },
    });
    expect(parsed.success).toBe(false);
    expect(!parsed.success && parsed.error).toContain('maxCalls');
  });
});

describe('priceOf', () => {
  it('matches the longest key as a prefix of the model, the user table before the built-in one', () => {
    expect(priceOf('openai:gpt-4o-mini-2024-07-18')).toEqual({ inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 });
    expect(priceOf('anthropic:claude-sonnet-4-20250514').outputPerMTokUsd).toBe(15);
    expect(priceOf('openai:gpt-4o', { 'openai:gpt-4o': { inputPerMTokUsd: 1, outputPerMTokUsd: 1 } })).toEqual({
      inputPerMTokUsd: 1,
      outputPerMTokUsd: 1,
    });
    expect(priceOf('openai:llama3.1:8b')).toEqual({ inputPerMTokUsd: 0, outputPerMTokUsd: 0 });
  });
});

describe('sumSpend and findExhaustedBudget', () => {
  it('sums calls, tokens and cost over attempts, pricing each by its model', () => {
    const attempt = (n: number, coderModel: string | undefined, calls: number): AttemptRecord => ({
      attempt: n,
      status: 'REWORK_REQUIRED',
      startedAt: '',
      envRetries: 0,
      coderModel,
      coder: {
        status: 'finished',
        summary: '',
        changedFiles: [],
        turnsConsumed: calls,
        telemetry: { ...emptyTelemetry(), modelRequests: calls, inputTokens: 1_000_000, outputTokens: 100_000 },
      },
    });
    const usages = collectModelUsage(
      [
        attempt(1, 'openai:gpt-4o', 2),
        attempt(2, undefined, 3),
        { attempt: 3, status: 'RUNNING', startedAt: '', envRetries: 0 },
      ],
      'openai:gpt-4o-mini',
    );
    expect(sumSpend(usages, {}, 5)).toEqual({
      modelCalls: 5,
      inputTokens: 2_000_000,
      outputTokens: 200_000,
      costUsd: 2.5 + 1 + 0.15 + 0.06,
      wallTimeMs: 5,
    });
  });

  it('names the first exhausted budget and its field, and nothing while all last', () => {
    const limits = budgets({ maxModelCalls: 3, maxTokens: 100, maxCostUsd: 1, maxWallTimeMs: 60_000 });
    expect(findExhaustedBudget(limits, spend({ modelCalls: 2, inputTokens: 50 }))).toBeUndefined();
    expect(findExhaustedBudget(limits, spend({ modelCalls: 3 }))).toMatch(
      /^budget exhausted: 3 of 3 model calls used \(budgets.maxModelCalls\)/,
    );
    expect(findExhaustedBudget(limits, spend({ inputTokens: 60, outputTokens: 40 }))).toContain('budgets.maxTokens');
    expect(findExhaustedBudget(limits, spend({ costUsd: 1.2 }))).toContain('budgets.maxCostUsd');
    expect(findExhaustedBudget(limits, spend({ wallTimeMs: 60_000 }))).toContain('budgets.maxWallTimeMs');
  });
});

describe('coderAllowance', () => {
  it('leaves the remaining calls and the tokens the remaining money buys, whichever is fewer', () => {
    const limits = budgets({ maxModelCalls: 10, maxTokens: 1_000_000, maxCostUsd: 1 });
    // $0.5 left at $10 per million output tokens buys 50,000 tokens.
    expect(
      coderAllowance(limits, spend({ modelCalls: 4, costUsd: 0.5, wallTimeMs: 1000 }), 'openai:gpt-4o', 0),
    ).toEqual({ modelCalls: 6, tokens: 50_000, deadlineAt: DEFAULT_BUDGETS.maxWallTimeMs - 1000 });
    expect(coderAllowance(limits, spend({ inputTokens: 900_000 }), 'scripted:x.json', 0).tokens).toBe(100_000);
  });
});
