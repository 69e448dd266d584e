// Word-overlap similarity of short texts (task descriptions, failure messages, skill triggers).

/** Words too common to say anything about similarity. */
export const stopWords: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'for',
  'with',
  'is',
  'are',
  'be',
  'it',
  'this',
  'that',
  'by',
  'as',
  'at',
  'from',
]);

/** The distinct meaningful words of a text: lowercased, split on anything not a letter or digit, stop-words dropped. */
export function significantWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word !== '' && !stopWords.has(word)),
  );
}

/**
 * Shared words over the smaller word set (|A∩B| / min(|A|,|B|)), 0..1; 0 when either text has no words.
 * The smaller set is the denominator so a short failure message matches a longer one that contains it.
 */
export function wordOverlap(a: string, b: string): number {
  const wordsA = significantWords(a);
  const wordsB = significantWords(b);
  const smaller = Math.min(wordsA.size, wordsB.size);
  if (smaller === 0) return 0;
  let shared = 0;
  for (const word of wordsA) if (wordsB.has(word)) shared++;
  return shared / smaller;
}

/** True when at least `threshold` of the smaller text's words appear in the other. */
export function isSimilar(a: string, b: string, threshold = 0.5): boolean {
  return wordOverlap(a, b) >= threshold;
}

export interface BufferedFailure {
  id: string;
  description: string;
  workflowId: string;
}

export interface FailureGroup<T extends BufferedFailure = BufferedFailure> {
  /** The description of the failure that started the group. */
  description: string;
  failures: T[];
  /** Distinct workflow ids of the members, in buffer order (the skill's provenance). */
  workflowIds: string[];
}

/**
 * Groups similar failures, greedily in buffer order: each ungrouped failure gathers the later
 * ungrouped failures similar to it; only groups of at least `minCount` are kept, and a failure
 * joins at most one group (members of a group too small stay free to join a later one).
 */
export function groupFailures<T extends BufferedFailure>(
  buffer: readonly T[],
  threshold = 0.5,
  minCount = 2,
): FailureGroup<T>[] {
  const grouped = new Set<number>();
  const groups: FailureGroup<T>[] = [];
  buffer.forEach((seed, i) => {
    if (grouped.has(i)) return;
    const members = [i];
    for (let j = i + 1; j < buffer.length; j++) {
      if (!grouped.has(j) && isSimilar(seed.description, buffer[j]!.description, threshold)) members.push(j);
    }
    if (members.length < minCount) return;
    members.forEach((m) => grouped.add(m));
    const failures = members.map((m) => buffer[m]!);
    groups.push({
      description: seed.description,
      failures,
      workflowIds: [...new Set(failures.map((f) => f.workflowId))],
    });
  });
  return groups;
}
