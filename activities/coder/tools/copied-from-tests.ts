// An `old` copied from the test evidence instead of the code: the 1.5B sent `assert 4 == 7` (pytest's E line) as old
// for boltons/setutils.py six times, each answered with the "closest lines" of a method unrelated to it; 86 of 507
// replace_in_file calls in session 4 and 5's evals had an old copied from the failing test or the evidence.
import { isTestFile } from '../../../domain/paths.js';
import { formatRegion } from './closest-lines.js';
import { describePlaces, filesContaining } from './files-containing.js';
import type { ToolContext } from './types.js';

// Most lines of shown code the reply repeats (else it names the places, for read_file).
const MAX_REPEATED_LINES = 40;

/** Where `old` was copied from, when it is the tests' text rather than code: the test output, or a test file. */
export async function copiedFromTests(old: string, context: ToolContext): Promise<string | undefined> {
  const lines = old
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.join('').length < 4) return undefined;
  const evidence = context.evidenceLines ?? [];
  if (evidence.length > 0 && lines.every((line) => evidence.some((shown) => shown.includes(line))))
    return "the test output (pytest's E lines in the evidence)";
  const places = await filesContaining(context.root, old.trim());
  if (places.length > 0 && places.every((place) => isTestFile(place.relative)))
    return `the test file ${describePlaces(places)}`;
  return undefined;
}

/** The code the evidence-first opening showed, as `file: name (lines a-b), ...; file: ...`; undefined when none was shown. */
export function shownCodeList(context: ToolContext): string | undefined {
  const shown = [...(context.shownCode ?? [])]
    .filter(([, ranges]) => ranges.length > 0)
    .map(([file, ranges]) => `${file}: ${ranges.map((r) => `${r.name} (lines ${r.start}-${r.end})`).join(', ')}`);
  return shown.length > 0 ? shown.join('; ') : undefined;
}

/** The reply to an old that is the tests' text: what it is, and where the code to copy old from is. */
export function notCodeReply(relative: string, text: string, source: string, context: ToolContext): string {
  const head = `error: 'old' was not found in ${relative}; nothing was changed. old is text of ${source}, not code of ${relative}: the tests are right, and old must be lines of the code under test.`;
  const shown = shownCodeList(context);
  if (shown === undefined)
    return `${head} Read ${relative} with read_file, copy old from its lines and put the corrected code in new.`;
  const here = context.shownCode?.get(relative) ?? [];
  const count = here.reduce((sum, range) => sum + range.end - range.start + 1, 0);
  const lines = text.split('\n');
  const repeated =
    here.length > 0 && count <= MAX_REPEATED_LINES
      ? ['', ...here.map((range) => formatRegion(lines, range.start, range.end))].join('\n---\n')
      : '';
  return `${head} The code under test shown to you: ${shown}. Copy old from there (without the line numbers) and put the corrected code in new.${repeated}`;
}
