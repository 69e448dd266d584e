// Bounded excerpts of test output: the record keeps the end of a log (where pytest prints its summary).

/** How much of stdout a test record keeps. */
export const STDOUT_EXCERPT_CHARS = 12_000;
/** How much of stderr a test record keeps. */
export const STDERR_EXCERPT_CHARS = 4_000;

/**
 * Keeps the end of `text` in at most `maxChars` characters; when it cuts, the excerpt starts with a one-line
 * marker saying how many characters were dropped.
 */
export function tailExcerpt(text: string, maxChars: number): string {
  const limit = Math.max(0, Math.floor(maxChars));
  if (text.length <= limit) return text;
  // The marker's length depends on the dropped count; size it for the largest count, then the real one is no longer.
  const keep = limit - dropMarker(text.length).length;
  if (keep <= 0) return dropLoneLowSurrogate(text.slice(text.length - limit));
  const tail = dropLoneLowSurrogate(text.slice(text.length - keep));
  return dropMarker(text.length - tail.length) + tail;
}

function dropMarker(dropped: number): string {
  return `[… ${dropped} earlier chars dropped …]\n`;
}

// A cut may split a surrogate pair; a lone half would show as garbage.
function dropLoneLowSurrogate(text: string): string {
  const first = text.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? text.slice(1) : text;
}
