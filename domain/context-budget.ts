// What the coder's context holds and how it fits a token budget: relevant files are named from the goal and the
// failure evidence; when too long, the oldest and largest parts are trimmed first. Pure: texts in, texts out.

const stopWords = new Set([
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'from',
  'not',
  'are',
  'was',
  'fix',
  'test',
  'tests',
  'assert',
  'error',
  'def',
  'return',
  'none',
  'true',
  'false',
  'self',
  'import',
  'failed',
  'passed',
  'issue',
  'bug',
]);

/** Identifiers and file names in free text (`cache_key`, `CacheStore`, `calc.py`, the parts of `tests/test_x.py::test_y`). */
export function extractSymbols(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/[A-Za-z_][A-Za-z0-9_./-]*/g)) {
      for (const part of match[0].split(/::|\//)) {
        const symbol = part.replace(/^[./-]+|[./-]+$/g, '');
        if (symbol.length >= 3 && !stopWords.has(symbol.toLowerCase())) found.add(symbol);
      }
    }
  }
  return [...found];
}

/** Source and test files: Python modules and anything under a tests folder (not CI configs, templates or docs). */
export function isSourceOrTest(file: string): boolean {
  if (file.split('/').some((part) => part.startsWith('.'))) return false;
  return /\.pyi?$/.test(file) || /(^|\/)tests?\//.test(file);
}

// A name ending in one of these is a file name (`cache.py`, `foo.toml`), not a dotted Python name.
const fileExtension = /\.(py|pyi|pyc|toml|json|ya?ml|txt|md|rst|cfg|ini|lock|sh|c|h|html|csv)$/i;

/** The parts of a dotted Python name (`tomli.loads`: `tomli`, `loads`); none for a file name. */
const dottedParts = (symbol: string): string[] =>
  symbol.includes('.') && !fileExtension.test(symbol) ? symbol.split('.') : [];

/**
 * Names in the texts that can be defined in Python (`_DescriptorBase`, `cache_key`): identifiers, not file names; a
 * dotted name gives its parts (`tomli.loads` gives `loads`, which a goal names far more often than a file).
 */
export function definableSymbols(texts: readonly string[]): string[] {
  const symbols = extractSymbols(texts);
  const parts = symbols.flatMap(dottedParts);
  // A short name (`add`) counts only where it is written as code: called, or part of a dotted name.
  const called = new Set(texts.flatMap((text) => [...text.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\(/g)].map((m) => m[1])));
  const asCode = (symbol: string) => symbol.length >= 4 || parts.includes(symbol) || called.has(symbol);
  return [...new Set(symbols.flatMap((symbol) => [symbol, ...dottedParts(symbol)]))].filter(
    (symbol) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(symbol) && symbol.length >= 3 && asCode(symbol),
  );
}

/** What a file is to the ranking: a Python module, a Python test, data under a tests folder, or anything else. */
export function fileKind(file: string): 'module' | 'test' | 'test-data' | 'other' {
  if (file.split('/').some((part) => part.startsWith('.'))) return 'other';
  const underTests = /(^|\/)tests?\//.test(file);
  if (/\.pyi?$/.test(file)) {
    const base = file.split('/').at(-1) ?? file;
    return underTests || /^test_|_test\.pyi?$|^conftest\.py$/.test(base) ? 'test' : 'module';
  }
  return underTests ? 'test-data' : 'other';
}

/** An extended regular expression for `git grep -E` finding where `symbols` are defined (def or class). */
export function definitionPattern(symbols: readonly string[]): string {
  return `^[[:space:]]*(async[[:space:]]+)?(def|class)[[:space:]]+(${symbols.join('|')})[^A-Za-z0-9_]`;
}

/**
 * Files most likely relevant, best first, at most `max`: where a symbol of the texts is defined (`definedIn`: file →
 * symbols defined there), named outright, or whose name is a symbol (`cache.py` for `cache`). Python files always
 * come before any other file (a CI config or an issue template matching a word of the goal), and a module before a
 * test of the same score. A data file (a `.toml` fixture under tests/) counts only when named: a word of its path
 * matching a word of the goal is no evidence (tomli's 700 fixtures named `str`, `type`, `file` crowded out its parser).
 */
export function rankRelevantFiles(
  files: readonly string[],
  texts: readonly string[],
  max = 5,
  definedIn: ReadonlyMap<string, number> = new Map(),
): string[] {
  const named = extractSymbols(texts).flatMap((symbol) => [symbol, ...dottedParts(symbol)]);
  const symbols = new Set(named.map((symbol) => symbol.toLowerCase()));
  const mentioned = texts.join('\n');
  const scored = files.map((file, index) => {
    const base = (file.split('/').at(-1) ?? file).toLowerCase();
    const stem = base.replace(/\.[^.]+$/, '');
    const kind = fileKind(file);
    const python = kind === 'module' || kind === 'test';
    let score = mentioned.includes(file) ? 5 : 0;
    score += 4 * Math.min(definedIn.get(file) ?? 0, 3);
    if (symbols.has(base)) score += 3;
    if (python && symbols.has(stem)) score += 2;
    if (python)
      score += file
        .toLowerCase()
        .split(/[/._-]/)
        .filter((token) => token.length >= 3 && symbols.has(token)).length;
    return { file, index, score, source: python ? 0 : isSourceOrTest(file) ? 1 : 2, module: kind === 'module' ? 0 : 1 };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => a.source - b.source || b.score - a.score || a.module - b.module || a.index - b.index)
    .slice(0, max)
    .map((entry) => entry.file);
}

/** One part of the context; `trimOrder` says when it may be cut (lower first), absent means never. */
export interface ContextSection {
  text: string;
  trimOrder?: number;
}

const TRIMMED = '[trimmed to fit the context budget]';
const charsOf = (sections: readonly ContextSection[]) =>
  sections.reduce((sum, section) => sum + section.text.length, 0);

/**
 * Cuts trimmable sections until the whole is under `maxTokens` (4 characters a token): lowest `trimOrder` first,
 * the largest first among equals; a section is shortened from its end, or replaced by a marker when little would remain.
 */
export function fitToBudget(sections: readonly ContextSection[], maxTokens: number): ContextSection[] {
  const result = sections.map((section) => ({ ...section }));
  const maxChars = maxTokens * 4;
  const candidates = result
    .map((section, index) => ({ section, index }))
    .filter((entry) => entry.section.trimOrder !== undefined)
    .sort(
      (a, b) =>
        (a.section.trimOrder ?? 0) - (b.section.trimOrder ?? 0) || b.section.text.length - a.section.text.length,
    );
  for (const { section } of candidates) {
    const excess = charsOf(result) - maxChars;
    if (excess <= 0) break;
    const keep = section.text.length - excess - TRIMMED.length - 1;
    section.text = keep >= 200 ? `${section.text.slice(0, keep)}\n${TRIMMED}` : TRIMMED;
  }
  return result;
}

/** The parts of a chat message the transcript bound reads and shrinks (structurally the coder's ChatMessage). */
export interface TranscriptMessage {
  role: string;
  content: string;
  name?: string;
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
}

export interface TranscriptBound {
  maxTokens: number;
  /** Tools whose latest output always stays whole (the latest diff, the latest test summary). */
  keepLatest: readonly string[];
  /** The newest messages left whole while older ones can shrink. */
  keepRecent?: number;
  /** Where the full text of message `index` can be read (the transcript artifact). */
  pointer: (index: number) => string;
}

const SHRINK_ARGUMENT_CHARS = 200;
// A reply's text longer than this shrinks like a tool output (a short reason or one fenced call stays).
const SHRINK_REPLY_CHARS = 600;
const tokensOf = (message: TranscriptMessage) =>
  Math.ceil((message.content.length + JSON.stringify(message.toolCalls ?? []).length) / 4);
const totalTokens = (messages: readonly TranscriptMessage[]) =>
  messages.reduce((sum, message) => sum + tokensOf(message), 0);

function shrinkMessage<M extends TranscriptMessage>(message: M, index: number, bound: TranscriptBound): M {
  if (message.role === 'tool') {
    if (message.content.length <= SHRINK_ARGUMENT_CHARS) return message;
    return {
      ...message,
      content: `[${message.name ?? 'tool'} output of ${message.content.length} characters shrunk: ${bound.pointer(index)}]`,
    };
  }
  if (message.role !== 'assistant') return message;
  // A reply's own text: a model without native tool calls writes its calls there (the 1.5B wrote 1,024 tokens of
  // them a reply, never shrunk, and the transcript outgrew the window); the calls themselves stay in toolCalls.
  const content =
    message.content.length > SHRINK_REPLY_CHARS
      ? `[reply of ${message.content.length} characters shrunk: ${bound.pointer(index)}]`
      : message.content;
  if (!message.toolCalls) return { ...message, content };
  // Long arguments (a whole file given to write_file) shrink too; the call's name and short arguments stay.
  const toolCalls = message.toolCalls.map((call) => ({
    ...call,
    arguments: Object.fromEntries(
      Object.entries(call.arguments).map(([key, value]) =>
        typeof value === 'string' && value.length > SHRINK_ARGUMENT_CHARS
          ? [key, `[${value.length} characters shrunk: ${bound.pointer(index)}]`]
          : [key, value],
      ),
    ),
  }));
  return { ...message, content, toolCalls };
}

/**
 * The messages to send for the next turn, within `maxTokens` (4 characters a token) where possible: older tool
 * outputs, long replies and long tool-call arguments shrink to a line pointing at the transcript, oldest first. The first two
 * messages (rules and goal), the latest output of each `keepLatest` tool and the newest `keepRecent` messages stay.
 */
export function boundTranscript<M extends TranscriptMessage>(messages: readonly M[], bound: TranscriptBound): M[] {
  const result = [...messages];
  let total = totalTokens(result);
  if (total <= bound.maxTokens) return result;
  const kept = new Set<number>([0, 1]);
  const latestOf = new Map<string, number>();
  result.forEach((message, index) => {
    if (message.role === 'tool' && message.name !== undefined && bound.keepLatest.includes(message.name))
      latestOf.set(message.name, index);
  });
  for (const index of latestOf.values()) kept.add(index);
  const recentFrom = result.length - (bound.keepRecent ?? 4);
  // Two passes: older messages first; only when that is not enough, the recent ones too.
  for (const limit of [recentFrom, result.length]) {
    for (let index = 0; index < limit; index++) {
      if (kept.has(index)) continue;
      const shrunk = shrinkMessage(result[index], index, bound);
      total += tokensOf(shrunk) - tokensOf(result[index]);
      result[index] = shrunk;
      if (total <= bound.maxTokens) return result;
    }
  }
  return result;
}
