// Classifies a test run's output into failure patterns: line rules first, then structured results.
import { lineRules, normalizeLine } from './line-rules.js';
import { classifyStructured } from './structured.js';
import type { TestCounts } from './structured.js';
import { makePattern } from './types.js';
import type { FailurePattern } from './types.js';

export interface ClassifyInput {
  /** Raw pytest output (stdout, optionally followed by stderr). */
  output: string;
  counts?: TestCounts;
  /** Exception type names per failure, e.g. `ImportError`, when the runner knows them. */
  failureTypes?: string[];
}

/** Level 1: one pattern per recognised line, deduplicated by (type, first symbol), keeping the most confident. */
export function classifyLines(output: string): FailurePattern[] {
  const found = new Map<string, FailurePattern>();
  for (const raw of output.split(/\r?\n/)) {
    const line = normalizeLine(raw);
    if (line === undefined) continue;
    for (const rule of lineRules) {
      const match = line.match(rule.regex);
      if (match === null) continue;
      const pattern = makePattern(rule.type, rule.confidence, rule.symbols(match), raw.trim());
      const key = `${pattern.type}\u0000${pattern.symbols[0] ?? ''}`;
      const earlier = found.get(key);
      if (earlier === undefined || earlier.confidence < pattern.confidence) found.set(key, pattern);
      break;
    }
  }
  return [...found.values()];
}

/**
 * Every failure pattern in a test run, most confident first. Structured results only add
 * types the lines did not show. A run with no failures gives `[]`; an unrecognised failure
 * gives one `unknown` pattern (confidence 0, novel).
 */
export function classifyTestOutput(input: ClassifyInput): FailurePattern[] {
  if (input.counts !== undefined && input.counts.failed + input.counts.errors === 0) return [];
  const fromLines = classifyLines(input.output);
  const seen = new Set(fromLines.map((p) => p.type));
  const fromCounts = classifyStructured(input.counts, input.failureTypes).filter((p) => !seen.has(p.type));
  // Array.prototype.sort is stable, so equal confidences keep output order.
  const merged = [...fromLines, ...fromCounts].sort((a, b) => b.confidence - a.confidence);
  return merged.length > 0 ? merged : [unknownPattern(input.output)];
}

/** The most confident pattern, or undefined when there is none. */
export function topPattern(patterns: readonly FailurePattern[]): FailurePattern | undefined {
  return patterns.reduce<FailurePattern | undefined>((best, p) => (best === undefined || p.confidence > best.confidence ? p : best), undefined);
}

function unknownPattern(output: string): FailurePattern {
  const lines = output.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  // The first error line says most about a novel failure; the last line (the summary) is the fallback.
  const evidence = lines.find((l) => /^E\s+\S/.test(l)) ?? lines.at(-1) ?? '';
  return { ...makePattern('unknown', 0, [], evidence), novel: true };
}
