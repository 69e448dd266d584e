// Reads the files most likely relevant to the goal and to earlier failures, for the coder's first message: where a
// symbol they name is defined (git grep), files they name, then the rest of the ranking (domain/context-budget.ts).
import { definableSymbols, definitionPattern, rankRelevantFiles } from '../../domain/context-budget.js';
import type { AttemptSummary } from '../../domain/records.js';
import type { ContextFile } from './context.js';
import { readConfinedFile } from '../untrusted-files.js';
import { listRepoFiles } from './repo-map.js';
import { runReadOnlyGit } from './tools/git-command.js';

/** The top file's excerpt may take this much; the others share what is left of the total, in rank order. */
const MAX_TOP_EXCERPT_CHARS = 12_000;
const MAX_TOTAL_EXCERPT_CHARS = 16_000;
// A lower-ranked file with less room than this is left out rather than shown as a stub.
const MIN_EXCERPT_CHARS = 600;
/** A larger file is not excerpted (a source file of the goal is far smaller; the model can still read_file it). */
const MAX_FILE_BYTES = 1024 * 1024;
// One git grep of this many names at most; a goal naming more is rare and the rest still match by file name.
const MAX_SYMBOLS = 20;

/** Files that define (def or class) a symbol of `texts`, each with how many of them; empty when git grep fails. */
export async function findDefinitions(worktreePath: string, texts: readonly string[]): Promise<Map<string, number>> {
  const symbols = definableSymbols(texts).slice(0, MAX_SYMBOLS);
  const defined = new Map<string, Set<string>>();
  if (symbols.length === 0) return new Map();
  const grep = await runReadOnlyGit(worktreePath, [
    'grep',
    '-I',
    '-o',
    '-E',
    definitionPattern(symbols),
    '--',
    '*.py',
    '*.pyi',
  ]);
  for (const line of grep.stdout.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const file = line.slice(0, colon);
    const name = /(?:def|class)\s+([A-Za-z0-9_]+)/.exec(line.slice(colon + 1))?.[1];
    if (name) defined.set(file, (defined.get(file) ?? new Set()).add(name));
  }
  return new Map([...defined].map(([file, names]) => [file, names.size]));
}

const cut = (text: string, limit: number) =>
  text.length > limit ? `${text.slice(0, limit)}\n[... cut; read_file shows the rest]` : text;

/** Up to `max` files named by the goal, the hint and earlier failures (symbols in test output), with their text. */
export async function readRelevantFiles(input: {
  worktreePath: string;
  goal: string;
  hint?: string;
  previousAttempts: AttemptSummary[];
  max?: number;
  /** The worktree's listing (listRepoFiles), when the caller already has it. */
  files?: string[];
}): Promise<ContextFile[]> {
  const evidence = input.previousAttempts.flatMap((attempt) => [
    attempt.failureReason ?? '',
    attempt.test?.stdoutExcerpt.slice(-4000) ?? '',
  ]);
  const texts = [input.goal, input.hint ?? '', ...evidence];
  const [listing, definedIn] = await Promise.all([
    input.files ?? listRepoFiles(input.worktreePath),
    findDefinitions(input.worktreePath, texts),
  ]);
  const files = rankRelevantFiles(listing, texts, input.max ?? 5, definedIn);
  const texted = await Promise.all(
    files.map(async (file) => {
      // A listed name may be a link out of the worktree or a FIFO the tests left: only regular files inside are read.
      const read = await readConfinedFile(input.worktreePath, file, MAX_FILE_BYTES);
      const text = read.ok ? read.text : undefined;
      // Deleted or binary: the model can list it.
      return text === undefined || text.includes('\0') ? undefined : { path: file, text };
    }),
  );
  // In rank order: the top file is never cut to make room for smaller ones below it.
  let room = MAX_TOTAL_EXCERPT_CHARS;
  const excerpts: ContextFile[] = [];
  for (const file of texted) {
    if (!file) continue;
    const limit = excerpts.length === 0 ? Math.min(MAX_TOP_EXCERPT_CHARS, room) : room;
    if (limit < Math.min(MIN_EXCERPT_CHARS, file.text.length)) break;
    const excerpt = cut(file.text, limit);
    excerpts.push({ path: file.path, excerpt });
    room -= Math.min(file.text.length, limit);
  }
  return excerpts;
}
