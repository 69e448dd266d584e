// Where an edit's `old` text belongs in a file, on a ladder as Aider does: exactly; else ignoring whitespace (line by
// line, the file's indentation carried over to the new text); else the one block of as many lines that is most
// similar, above a threshold. Each rung must find one place only. Pure: text in, offsets out.

/** A similar block is taken only at or above this average line similarity. */
export const SIMILAR_BLOCK_THRESHOLD = 0.85;
// The best block must beat the next one by this much to count as the one place meant.
const UNIQUE_MARGIN = 0.05;
// Blocks are compared line by line: a bound keeps a huge file from costing seconds.
const MAX_COMPARISONS = 400_000;

export type EditMatch =
  | {
      kind: 'exact' | 'whitespace' | 'similar';
      start: number;
      end: number;
      replacement: string;
      line: number;
      score: number;
    }
  | { kind: 'ambiguous'; lines: number[] }
  | { kind: 'none' };

const normalise = (text: string): string => text.trim().replace(/\s+/g, ' ');

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
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

const indentOf = (line: string): string => /^\s*/.exec(line)?.[0] ?? '';

/**
 * `replacement` re-indented the way `old`'s lines map to the file's: each indentation old used becomes the file's
 * (2 spaces → 4), and deeper ones scale by the same ratio when every pair agrees on one.
 */
function carryIndent(fileLines: readonly string[], oldLines: readonly string[], replacement: string): string {
  const mapping = new Map<string, string>();
  const ratios = new Set<number>();
  oldLines.forEach((line, k) => {
    if (line.trim() === '') return;
    const from = indentOf(line);
    const to = indentOf(fileLines[k] ?? '');
    mapping.set(from, to);
    if (from.length > 0) ratios.add(to.length / from.length);
  });
  if ([...mapping].every(([from, to]) => from === to)) return replacement;
  const ratio = ratios.size === 1 ? [...ratios][0] : undefined;
  return replacement
    .split('\n')
    .map((line) => {
      if (line.trim() === '') return line;
      const indent = indentOf(line);
      const mapped =
        mapping.get(indent) ??
        (ratio !== undefined && /^ *$/.test(indent) ? ' '.repeat(Math.round(indent.length * ratio)) : indent);
      return mapped + line.slice(indent.length);
    })
    .join('\n');
}

/** Character offset where line `index` (0-based) starts. */
function offsetOfLine(lines: readonly string[], index: number): number {
  let offset = 0;
  for (let i = 0; i < index; i++) offset += (lines[i] ?? '').length + 1;
  return offset;
}

/** Finds the one place `old` belongs in `text`, and the text to put there instead of it. */
export function matchEdit(text: string, old: string, replacement: string): EditMatch {
  const exact = text.indexOf(old);
  if (exact !== -1) {
    const lines: number[] = [];
    for (let at = exact; at !== -1 && lines.length < 100; at = text.indexOf(old, at + 1))
      lines.push(text.slice(0, at).split('\n').length);
    if (lines.length > 1) return { kind: 'ambiguous', lines };
    return { kind: 'exact', start: exact, end: exact + old.length, replacement, line: lines[0] ?? 1, score: 1 };
  }
  const fileLines = text.split('\n');
  // A trailing newline in old is not a line of its own.
  const oldLines = old.replace(/\n$/, '').split('\n');
  const span = oldLines.length;
  if (span > fileLines.length || span * fileLines.length > MAX_COMPARISONS) return { kind: 'none' };
  const scores: { index: number; score: number; same: boolean }[] = [];
  for (let index = 0; index + span <= fileLines.length; index++) {
    let total = 0;
    let same = true;
    for (let k = 0; k < span; k++) {
      const a = fileLines[index + k] ?? '';
      const b = oldLines[k] ?? '';
      if (normalise(a) !== normalise(b)) same = false;
      total += lineSimilarity(a, b);
    }
    scores.push({ index, score: total / span, same });
  }
  const same = scores.filter((entry) => entry.same);
  if (same.length > 1) return { kind: 'ambiguous', lines: same.map((entry) => entry.index + 1) };
  const ranked = [...scores].sort((a, b) => b.score - a.score);
  const chosen = same[0] ?? ranked[0];
  if (!chosen) return { kind: 'none' };
  if (!same[0]) {
    if (chosen.score < SIMILAR_BLOCK_THRESHOLD) return { kind: 'none' };
    const second = ranked[1];
    if (second && second.score > chosen.score - UNIQUE_MARGIN)
      return { kind: 'ambiguous', lines: [chosen.index + 1, second.index + 1] };
  }
  const matched = fileLines.slice(chosen.index, chosen.index + span);
  const start = offsetOfLine(fileLines, chosen.index);
  const end = start + matched.join('\n').length;
  return {
    kind: same[0] ? 'whitespace' : 'similar',
    start,
    end,
    replacement: carryIndent(matched, oldLines, old.endsWith('\n') ? replacement.replace(/\n$/, '') : replacement),
    line: chosen.index + 1,
    score: chosen.score,
  };
}

/** Lines of a file the model was shown whole in its first message (1-based, inclusive), and what they hold. */
export interface ShownLines {
  start: number;
  end: number;
  name: string;
}

/**
 * Where `old` occurs more than once in `text`: the one occurrence lying wholly inside the shown lines, when exactly one
 * does. A small model copies a line from the function its evidence showed it, and that line recurs elsewhere in the
 * file (the 1.5B sent `self._translate_index(index)`, in 5 places of boltons' listutils.py, three times running).
 */
export function occurrenceWithin(
  text: string,
  old: string,
  shown: readonly ShownLines[],
): { start: number; end: number; line: number; within: ShownLines; lines: number[] } | undefined {
  const spans = old.replace(/\n$/, '').split('\n').length - 1;
  const lines: number[] = [];
  const inside: { start: number; line: number; within: ShownLines }[] = [];
  for (let at = text.indexOf(old); at !== -1 && lines.length < 100; at = text.indexOf(old, at + 1)) {
    const line = text.slice(0, at).split('\n').length;
    lines.push(line);
    const within = shown.find((range) => line >= range.start && line + spans <= range.end);
    if (within) inside.push({ start: at, line, within });
  }
  const [only] = inside;
  if (lines.length < 2 || inside.length !== 1 || only === undefined) return undefined;
  return { start: only.start, end: only.start + old.length, line: only.line, within: only.within, lines };
}
