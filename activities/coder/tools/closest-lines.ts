// Finds where a mismatched `old` text most likely was meant to match, to show the model the real lines.

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** Similarity of two lines in [0, 1] (Dice coefficient of character bigrams, whitespace-insensitive). */
export function lineSimilarity(a: string, b: string): number {
  const x = normalise(a);
  const y = normalise(b);
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const gramsX = bigrams(x);
  let shared = 0;
  for (const [gram, count] of bigrams(y)) shared += Math.min(count, gramsX.get(gram) ?? 0);
  return (2 * shared) / (x.length - 1 + (y.length - 1));
}

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
