// Finds where a mismatched `old` text most likely was meant to match, to show the model the real lines.
import { lineSimilarity } from '../../../domain/edit-match.js';

export { lineSimilarity };

/** Formats lines `from..to` (1-based, inclusive, clamped) as `<number>\t<text>`. */
export function formatRegion(lines: readonly string[], from: number, to: number): string {
  const out: string[] = [];
  for (let n = Math.max(1, from); n <= Math.min(lines.length, to); n++) out.push(`${n}\t${lines[n - 1]}`);
  return out.join('\n');
}

/** The ~5-line region around the line most similar to the first non-blank line of `old`. */
export function findClosestRegion(
  lines: readonly string[],
  old: string,
  radius = 2,
): { line: number; score: number; region: string } {
  const target = old.split('\n').find((line) => line.trim() !== '') ?? old;
  let best = 1;
  let bestScore = -1;
  lines.forEach((line, i) => {
    const score = lineSimilarity(line, target);
    if (score > bestScore) [best, bestScore] = [i + 1, score];
  });
  return { line: best, score: Math.max(bestScore, 0), region: formatRegion(lines, best - radius, best + radius) };
}

/** 1-based line numbers where each occurrence of `needle` in `text` starts (overlaps count; at most `limit`). */
export function occurrenceLines(text: string, needle: string, limit = 100): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1 && found.length < limit; at = text.indexOf(needle, at + 1)) {
    found.push(text.slice(0, at).split('\n').length);
  }
  return found;
}
