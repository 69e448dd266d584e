// Classifies a test run's output into failure patterns: line rules first, then structured results.
import { lineRules, normalizeLine } from './line-rules.js';
import type { LineContext } from './line-rules.js';
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
  /** The repository's top-level module names: a missing module outside them is an environment cause. */
  ownModules?: readonly string[];
}

/** Most patterns a test run keeps. */
export const maxPatterns = 5;

const sectionHeader = /^_{3,} .+ _{3,}$/;
const fileLocation = /^(?:E\s+)?\s*File "([^"]+)", line (\d+)/;
const environMention = /\bos\.environ\b|\benviron\[|<frozen os>|\bgetenv\(/;
/** How many lines after an os.environ mention a KeyError still counts as a missing variable. */
const environReach = 40;

/** Level 1: one pattern per recognised line, deduplicated by (type, first symbol), keeping the most confident. */
export function classifyLines(output: string, ownModules?: readonly string[]): FailurePattern[] {
  const found = new Map<string, FailurePattern>();
  let location: LineContext['location'];
  let environLine = -Infinity;
  output.split(/\r?\n/).forEach((raw, index) => {
    if (sectionHeader.test(raw.trim())) {
      location = undefined;
      environLine = -Infinity;
    }
    const where = raw.match(fileLocation);
    if (where !== null) location = { file: where[1]!, line: Number(where[2]) };
    if (environMention.test(raw)) environLine = index;
    const line = normalizeLine(raw);
    if (line === undefined) return;
    const context: LineContext = { location, environNearby: index - environLine <= environReach, ownModules };
    for (const rule of lineRules) {
      const match = line.match(rule.regex);
      if (match === null || (rule.applies !== undefined && !rule.applies(match, context))) continue;
      const symbols = rule.symbols(match, context);
      const evidence =
        rule.type === 'syntax_error' && symbols[0] !== undefined ? `${raw.trim()} (${symbols[0]})` : raw.trim();
      const pattern = makePattern(rule.type, rule.confidence, symbols, evidence);
      const key = `${pattern.type}\u0000${pattern.symbols[0] ?? ''}`;
      const earlier = found.get(key);
      if (earlier === undefined || earlier.confidence < pattern.confidence) found.set(key, pattern);
      break;
    }
  });
  return [...found.values()];
}

/**
 * Every failure pattern in a test run, strongest first (see `byStrength`). Structured results only add types the
 * lines did not show, and never `complex_behavior` when a syntax error explains the failures (one error breaks
 * every module importing the file). A run with no failures gives `[]`; an unrecognised failure gives one `unknown`
 * pattern (confidence 0, novel).
 */
export function classifyTestOutput(input: ClassifyInput): FailurePattern[] {
  if (input.counts !== undefined && input.counts.failed + input.counts.errors === 0) return [];
  const fromLines = classifyLines(input.output, input.ownModules);
  const seen = new Set(fromLines.map((p) => p.type));
  const fromCounts = classifyStructured(input.counts, input.failureTypes).filter(
    (p) => !seen.has(p.type) && !(p.type === 'complex_behavior' && seen.has('syntax_error')),
  );
  const merged = [...fromLines, ...fromCounts].sort(byStrength);
  return merged.length > 0 ? merged : [unknownPattern(input.output)];
}

/**
 * Order of patterns: higher confidence first; at equal confidence the more specific first (more symbols: a
 * qualified name beats a bare one, a line match beats a shape of the run); then output order (the sort is stable).
 */
export function byStrength(a: FailurePattern, b: FailurePattern): number {
  return b.confidence - a.confidence || b.symbols.length - a.symbols.length;
}

/**
 * At most `max` patterns, never dropping one more confident than a kept one. Among equally confident patterns
 * the cut keeps one of each type first, so a tie (e.g. complex_behavior with several wrong_constant lines)
 * does not crowd a type out. Input order is `byStrength`; so is the output.
 */
export function capPatterns(patterns: readonly FailurePattern[], max: number = maxPatterns): FailurePattern[] {
  const sorted = [...patterns].sort(byStrength);
  const kept: FailurePattern[] = [];
  const keptTypes = new Set<string>();
  for (let start = 0; start < sorted.length && kept.length < max;) {
    const confidence = sorted[start]!.confidence;
    let end = start;
    while (end < sorted.length && sorted[end]!.confidence === confidence) end += 1;
    const tier = sorted.slice(start, end);
    const newTypes = tier.filter((p) => !keptTypes.has(p.type) && keptTypes.add(p.type));
    const rest = tier.filter((p) => !newTypes.includes(p));
    const chosen = new Set([...newTypes, ...rest].slice(0, max - kept.length));
    kept.push(...tier.filter((p) => chosen.has(p)));
    start = end;
  }
  return kept;
}

/** The strongest pattern, or undefined when there is none. */
export function topPattern(patterns: readonly FailurePattern[]): FailurePattern | undefined {
  return patterns.reduce<FailurePattern | undefined>(
    (best, p) => (best === undefined || byStrength(p, best) < 0 ? p : best),
    undefined,
  );
}

function unknownPattern(output: string): FailurePattern {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  // The first error line says most about a novel failure; the last line (the summary) is the fallback.
  const evidence = lines.find((l) => /^E\s+\S/.test(l)) ?? lines.at(-1) ?? '';
  return { ...makePattern('unknown', 0, [], evidence), novel: true };
}
