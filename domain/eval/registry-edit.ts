// Edits agents/registry.json as text, so a promotion is a small reviewable diff: the coder's champion value and
// one history entry, everything else byte for byte as it was (prettier's layout: one key per line in entries).
import type { PromotionDecision } from './promotion.js';

export interface PromotionRecord {
  at: string;
  evalId: string;
  suite: string;
  decision: 'promoted' | 'kept';
  from: string;
  to?: string;
  shared?: number;
  difference?: number;
  intervalLow?: number;
  intervalHigh?: number;
  level?: number;
  pValue?: number;
  reason: string;
}

export function promotionRecord(
  decision: PromotionDecision,
  context: { at: string; evalId: string; suite: string },
): PromotionRecord {
  const round = (value: number | undefined) => (value === undefined ? undefined : Math.round(value * 10_000) / 10_000);
  const record: PromotionRecord = {
    at: context.at,
    evalId: context.evalId,
    suite: context.suite,
    decision: decision.promote ? 'promoted' : 'kept',
    from: decision.champion,
    to: decision.candidate,
    shared: decision.shared,
    difference: round(decision.difference),
    intervalLow: round(decision.interval?.low),
    intervalHigh: round(decision.interval?.high),
    level: decision.interval?.level,
    pValue: round(decision.pValue),
    reason: decision.reason,
  };
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as unknown as PromotionRecord;
}

/** The span of the top-level `"coder": { … }` object in the text (brace matching outside strings). */
function coderSpan(text: string): { start: number; end: number } | undefined {
  const key = /^ {2}"coder":\s*\{/m.exec(text);
  if (!key) return undefined;
  const open = key.index + key[0].length - 1;
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return { start: open, end: i };
    }
  }
  return undefined;
}

function renderEntry(record: PromotionRecord, indent: string): string {
  const lines = Object.entries(record).map(
    ([key, value]) => `${indent}  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `${indent}{\n${lines.join(',\n')}\n${indent}}`;
}

/**
 * The registry text with the coder's champion set to `champion` (when given) and `record` appended to the coder's
 * `history` (created after `champion` when absent). Throws when the text has no coder entry of the usual shape.
 */
export function editRegistryText(text: string, record: PromotionRecord, champion?: string): string {
  const span = coderSpan(text);
  if (!span) throw new Error('the registry has no top-level "coder" entry to edit');
  let body = text.slice(span.start, span.end + 1);
  if (champion !== undefined) {
    const replaced = body.replace(/^( {4}"champion":\s*)"[^"]*"/m, `$1${JSON.stringify(champion)}`);
    if (replaced === body && !body.includes(`"champion": ${JSON.stringify(champion)}`))
      throw new Error('the coder entry has no "champion" line to edit');
    body = replaced;
  }
  const history = /^( {4}"history":\s*\[)([\s\S]*?)^( {4}\])/m.exec(body);
  if (history) {
    const inner = (history[2] ?? '').replace(/\s+$/, '');
    const joined = `${inner}${inner.trim() === '' ? '' : ','}\n${renderEntry(record, '      ')}\n`;
    body = body.replace(history[0], `${history[1]}${joined}${history[3]}`);
  } else {
    body = body.replace(/^( {4}"champion":\s*"[^"]*",?)$/m, (line) => {
      const withComma = line.endsWith(',') ? line : `${line},`;
      const tail = line.endsWith(',') ? ',' : '';
      return `${withComma}\n    "history": [\n${renderEntry(record, '      ')}\n    ]${tail}`;
    });
  }
  return text.slice(0, span.start) + body + text.slice(span.end + 1);
}
