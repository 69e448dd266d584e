// Reads the prose of a failure message and leaves out code, so classifier words match only where a person wrote them.

/** Marks where code was removed, so a phrase never matches across it. */
const gap = '\u00a7';

// Characters that never appear in a prose word but do in identifiers, paths, node ids and expressions.
const codeChars = /[_/\\=<>{}[\]()#@$`|~*+^%&]|::|\w\.\w/;
const camelCase = /[a-z][A-Z]/;
const lettersWithDigits = /[A-Za-z]\d|\d[A-Za-z]/;

/**
 * Returns the prose words of `text`, lower-cased and separated by single spaces; code (quoted spans, identifiers,
 * paths, pytest node ids, `assert …` expressions, pytest `E`/`>` lines) becomes a gap marker.
 * Tokens listed in `keepTokens` (e.g. `budget_exhausted`) are kept, with `_` read as a space.
 */
export function extractProse(text: string, keepTokens: ReadonlySet<string> = new Set()): string {
  const withoutQuoted = text
    .replace(/```[\s\S]*?```/g, ` ${gap} `)
    .replace(/`[^`\n]*`/g, ` ${gap} `)
    .replace(/"[^"\n]*"/g, ` ${gap} `)
    // Single quotes only as delimiters, so apostrophes (didn't, model's) stay prose.
    .replace(/(^|[^\w'])'[^'\n]*'(?=[^\w]|$)/gm, `$1 ${gap} `);
  const words: string[] = [];
  for (const line of withoutQuoted.split('\n')) {
    // pytest prints the failing source after `>` and the assertion detail after `E`: both are code.
    if (/^\s*(?:E|>)(?:\s|$)/.test(line)) {
      words.push(gap);
      continue;
    }
    const prose = line.replace(/\bassert\b.*$/, ` ${gap}`);
    for (const token of prose.split(/\s+/)) {
      if (token.length > 0) words.push(...readToken(token, keepTokens));
    }
  }
  return words.join(' ');
}

function readToken(token: string, keepTokens: ReadonlySet<string>): string[] {
  const core = token.replace(/^[("'[]+/, '').replace(/[)\]"',.;:!?]+$/, '');
  if (core.length === 0) return [];
  const lower = core.toLowerCase();
  if (keepTokens.has(lower)) return lower.split('_');
  if (
    core === gap ||
    core.startsWith('-') ||
    codeChars.test(core) ||
    camelCase.test(core) ||
    lettersWithDigits.test(core)
  ) {
    return [gap];
  }
  // Hyphenated prose (context-window) is several words; a possessive is the word itself.
  return lower
    .replace(/'s$/, '')
    .split('-')
    .filter((word) => word.length > 0);
}

/** True when `prose` (from `extractProse`) holds `phrase` as whole words; a one-word phrase may take a plural `s`. */
export function hasPhrase(prose: string, phrase: string): boolean {
  const words = phrase.toLowerCase().split(/\s+/).map(escapeRegExp);
  const plural = words.length === 1 ? 's?' : '';
  return new RegExp(`(?:^| )${words.join(' ')}${plural}(?= |$)`).test(prose);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
