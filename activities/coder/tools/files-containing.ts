// Where a text occurs in the worktree, for an edit that named a file that does not exist. Small models copy the
// example path of their prompt ('src/pkg/mod.py') with the right `old` text: the text itself says which file was meant.
import { isTestFile } from '../../../domain/paths.js';
import { occurrenceLines } from './closest-lines.js';
import { walkDirectory } from './walk.js';
import { readWorktreeFile } from './worktree-file.js';

// Bounds: the search runs inside one tool call, on a worktree repository code may have filled.
const MAX_FILES = 5_000;
const MAX_FILE_BYTES = 1024 * 1024;
const SOURCE_SUFFIXES = ['.py', '.pyi', '.txt', '.md', '.rst', '.cfg', '.toml', '.ini', '.json', '.yaml', '.yml'];

export interface TextPlace {
  relative: string;
  /** Lines (1-based) where the text starts. */
  lines: number[];
}

/** The files (sorted, test files last) holding `text` exactly, with the lines where it starts; at most `limit`. */
export async function filesContaining(root: string, text: string, limit = 5): Promise<TextPlace[]> {
  const found: TextPlace[] = [];
  let seen = 0;
  for await (const entry of walkDirectory(root, root, true)) {
    if (entry.kind !== 'file' || !SOURCE_SUFFIXES.some((suffix) => entry.relative.endsWith(suffix))) continue;
    if (++seen > MAX_FILES) break;
    const read = await readWorktreeFile(root, { relative: entry.relative, absolute: entry.absolute });
    if (!read.ok || read.text.length > MAX_FILE_BYTES || !read.text.includes(text)) continue;
    found.push({ relative: entry.relative, lines: occurrenceLines(read.text, text) });
  }
  found.sort((a, b) => Number(isTestFile(a.relative)) - Number(isTestFile(b.relative)));
  return found.slice(0, limit);
}

/** The one file and place `text` can mean: exactly one file outside the tests holding it exactly once. */
export function onlyPlace(places: TextPlace[]): TextPlace | undefined {
  const code = places.filter((place) => !isTestFile(place.relative));
  return code.length === 1 && code[0].lines.length === 1 ? code[0] : undefined;
}

export function describePlaces(places: TextPlace[]): string {
  return places
    .map((place) => `${place.relative} (line${place.lines.length > 1 ? 's' : ''} ${place.lines.join(', ')})`)
    .join(', ');
}
