// Maps a path inside the parsed data (e.g. milestones[0].features[1].tasks[2].maxRetries) back to a line and column.
import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, LineCounter, Node } from 'yaml';

export type PathSegment = string | number;

export interface SourcePosition {
  line?: number;
  column?: number;
}

/**
 * Returns a function that locates a path in the document: the value node, or the key when `target` is
 * `key` (unknown keys). A path that stops early (a missing key) locates the deepest node that exists.
 */
export function createLocator(doc: Document, lineCounter: LineCounter) {
  return (path: readonly PathSegment[], target: 'key' | 'value' = 'value'): SourcePosition => {
    let node: unknown = doc.contents;
    let offset = rangeStart(node);
    for (const [depth, segment] of path.entries()) {
      const step = stepInto(node, segment);
      if (step === undefined) break;
      const last = depth === path.length - 1;
      // A key with an empty value (`maxRetries:`) has no value node: point at the key instead.
      offset =
        (last && target === 'key' ? rangeStart(step.key) : rangeStart(step.value)) ?? rangeStart(step.key) ?? offset;
      node = step.value;
    }
    if (offset === undefined) return {};
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
}

function stepInto(node: unknown, segment: PathSegment): { key?: unknown; value: unknown } | undefined {
  if (isSeq(node)) {
    const index = typeof segment === 'number' ? segment : Number(segment);
    return Number.isInteger(index) && index < node.items.length ? { value: node.items[index] } : undefined;
  }
  if (isMap(node)) {
    const pair = node.items.find((item) => isPair(item) && keyText(item.key) === String(segment));
    return pair ? { key: pair.key, value: pair.value } : undefined;
  }
  return undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}
