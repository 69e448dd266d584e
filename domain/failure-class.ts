// Word rules for free text only (a model's verdict, an unknown error): typed causes are classed by the table in
// failure-causes.ts.
import type { Finding, TaskNode } from './node-findings.js';
import { extractProse, hasPhrase } from './prose.js';

/**
 * Every failure class: the reference loop's classes plus code_defect (the change itself is wrong), and a person's
 * last word on a task with `approval: required`: rejected, or no answer in time (domain/approval.ts).
 */
export const failureClasses = [
  'code_defect',
  'budget_exhausted',
  'missing_capability',
  'context_problem',
  'environment_problem',
  'model_problem',
  'intent_ambiguity',
  'replan',
  'split_task',
  'merge_conflict',
  'rejected_by_reviewer',
  'approval_timed_out',
] as const;
export type FailureClass = (typeof failureClasses)[number];

/** Word rules in order of precedence: the first class with a matching phrase wins. */
export const failureClassRules: readonly { failureClass: FailureClass; phrases: readonly string[] }[] = [
  { failureClass: 'budget_exhausted', phrases: ['budget exhausted', 'budget exceeded'] },
  { failureClass: 'missing_capability', phrases: ['unsupported operation', 'missing capability'] },
  { failureClass: 'context_problem', phrases: ['context', 'migration'] },
  {
    failureClass: 'environment_problem',
    phrases: [
      'timed out',
      'timeout',
      'provider',
      'environment',
      'command not found',
      'no tests collected',
      'no tests ran',
      'connection refused',
      'enoent',
      'econnrefused',
      'econnreset',
      'etimedout',
      'worker lost',
    ],
  },
  { failureClass: 'model_problem', phrases: ['malformed json', 'model'] },
  { failureClass: 'intent_ambiguity', phrases: ['ambiguous', 'ambiguity'] },
];

// Our own identifiers that carry meaning: a class name, or the coder's `model_error` status, read as prose.
const keepTokens: ReadonlySet<string> = new Set([...failureClasses, 'model_error']);

/**
 * Classifies free text on whole words of prose only (never inside identifiers, paths, pytest node ids or quoted
 * code). The reason is read first; findings' messages only when the reason matched no rule. With no word match
 * the fallback stands (by default: a replan at review or judge, a code defect anywhere else).
 */
export function classifyFailure(input: {
  node: TaskNode;
  reason: string;
  findings?: Finding[];
  fallback?: FailureClass;
}): FailureClass {
  const fromReason = matchRules(input.reason);
  if (fromReason) return fromReason;
  const fromFindings = matchRules((input.findings ?? []).map((finding) => finding.message).join('\n'));
  if (fromFindings) return fromFindings;
  return input.fallback ?? (input.node === 'review' || input.node === 'judge' ? 'replan' : 'code_defect');
}

function matchRules(text: string): FailureClass | undefined {
  const prose = extractProse(text, keepTokens);
  return failureClassRules.find((rule) => rule.phrases.some((phrase) => hasPhrase(prose, phrase)))?.failureClass;
}
