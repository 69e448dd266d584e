// The vocabulary of failure patterns and the prompt strategy each one calls for.
import { z } from 'zod';

/** Kinds of failure the classifier recognises; `unknown` marks a novel failure. */
export const patternTypes = [
  'cross_dep',
  'missing_impl',
  'wrong_constant',
  'api_mismatch',
  'test_infra',
  'complex_behavior',
  'syntax_error',
  'unknown',
] as const;
export const patternTypeSchema = z.enum(patternTypes);
export type PatternType = z.infer<typeof patternTypeSchema>;

/** What the context builder changes in the next attempt. */
export const strategies = [
  'expand_dependency_context',
  'include_source_excerpt',
  'prioritize_constants',
  'fix_signatures',
  'increase_tests_shown',
  'show_error_location',
] as const;
export const strategySchema = z.enum(strategies);
export type Strategy = z.infer<typeof strategySchema>;

/** The strategy each pattern maps to. A novel failure gets more test evidence, the one generic help. */
export const strategyByPattern: Record<PatternType, Strategy> = {
  cross_dep: 'expand_dependency_context',
  missing_impl: 'include_source_excerpt',
  wrong_constant: 'prioritize_constants',
  api_mismatch: 'fix_signatures',
  test_infra: 'increase_tests_shown',
  complex_behavior: 'increase_tests_shown',
  syntax_error: 'show_error_location',
  unknown: 'increase_tests_shown',
};

export const failurePatternSchema = z.object({
  type: patternTypeSchema,
  /** 0..1; 0 only for `unknown`. */
  confidence: z.number().min(0).max(1),
  /** Affected names; the first is the most specific (e.g. `calc.mul`). */
  symbols: z.array(z.string()),
  /** The matched line (at most 200 characters) or, for structured patterns, a sentence. */
  evidence: z.string().max(200),
  strategy: strategySchema,
  novel: z.boolean().optional(),
});
/** One recognised failure pattern, JSON-safe. */
export type FailurePattern = z.infer<typeof failurePatternSchema>;

export const maxEvidenceChars = 200;

/** Cuts text to the evidence limit, marking the cut. */
export function clipEvidence(text: string): string {
  return text.length <= maxEvidenceChars ? text : `${text.slice(0, maxEvidenceChars - 1)}…`;
}

/** Builds a pattern with its mapped strategy. */
export function makePattern(
  type: PatternType,
  confidence: number,
  symbols: string[],
  evidence: string,
): FailurePattern {
  return { type, confidence, symbols, evidence: clipEvidence(evidence), strategy: strategyByPattern[type] };
}
