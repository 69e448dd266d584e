// Which code the coder sees first, as Agentless localises: the functions the traceback runs through, the definitions
// the goal names, and the failing test itself, each whole (or the part around the frame when very long), with line
// numbers, in that order, within a budget. Pure: the evidence and the candidate files' texts in, snippets out.
import { definableSymbols, fileKind } from '../context-budget.js';
import type { FailureEvidence } from './failure-evidence.js';
import { blocksNamed, enclosingBlock, numberedLines, type CodeBlock } from './python-blocks.js';

export type SnippetReason = 'traceback' | 'goal' | 'failing test';

export interface CodeSnippet {
  file: string;
  /** The function or class shown. */
  name: string;
  start: number;
  end: number;
  why: SnippetReason;
  /** The lines, numbered as read_file shows them. */
  text: string;
  /** Set when the block is longer than shown: its whole extent, for read_file. */
  whole?: { start: number; end: number };
}

export interface Localisation {
  snippets: CodeSnippet[];
  /** Blocks found but left out for the budget, as `file:start-end (name)`, so the model can read them. */
  omitted: string[];
}

/** Default most lines of one block (a long function shows the part around its frame). */
export const MAX_BLOCK_LINES = 80;

interface Candidate {
  file: string;
  block: CodeBlock;
  why: SnippetReason;
  /** The frame's line, to centre a long block on. */
  focus?: number;
}

/**
 * The goal's names that code could define, those written as code first (`loads(`, `tomli.loads`, `backoff_iter`,
 * `` `x` ``), then the rest of its words, each once, in the order the goal has them.
 */
export function goalNames(texts: readonly string[]): string[] {
  const names = definableSymbols(texts);
  const joined = texts.join('\n');
  const codeLike = (name: string) =>
    new RegExp(`(\\.${name}\\b|\\b${name}\\s*\\(|\`${name}\\b|\\b${name}\\.[A-Za-z_]|\\b${name}\\b\\s*=)`).test(
      joined,
    ) ||
    name.includes('_') ||
    /[a-z][A-Z]/.test(name);
  return [...names.filter(codeLike), ...names.filter((name) => !codeLike(name))];
}

/** The test function a node id names (`tests/t.py::TestX::test_y[1]` gives `test_y` in `tests/t.py`). */
function testOf(id: string): { file: string; name: string } | undefined {
  const [file, ...parts] = id.split('::');
  const name = parts.at(-1)?.replace(/\[.*$/, '');
  return file && name ? { file, name } : undefined;
}

function candidatesOf(input: {
  evidence: FailureEvidence;
  goalTexts: readonly string[];
  files: ReadonlyMap<string, string>;
}): Candidate[] {
  const { evidence, files } = input;
  const framesInner = [...evidence.frames].reverse();
  const frameCandidates = (wanted: (file: string) => boolean): Candidate[] =>
    framesInner.flatMap((frame) => {
      const text = files.get(frame.file);
      const block = text === undefined || !wanted(frame.file) ? undefined : enclosingBlock(text, frame.line);
      return block ? [{ file: frame.file, block, why: 'traceback' as const, focus: frame.line }] : [];
    });
  const isModule = (file: string) => fileKind(file) === 'module';
  const modules = [...files.keys()].filter(isModule).sort();
  const goal = goalNames(input.goalTexts).flatMap((name) =>
    modules.flatMap((file) =>
      blocksNamed(files.get(file) ?? '', name).map((block) => ({ file, block, why: 'goal' as const })),
    ),
  );
  const tests = evidence.failing.flatMap((id) => {
    const test = testOf(id);
    const text = test && files.get(test.file);
    if (!test || text === undefined) return [];
    return blocksNamed(text, test.name).map((block) => ({ file: test.file, block, why: 'failing test' as const }));
  });
  return [...frameCandidates(isModule), ...goal, ...tests, ...frameCandidates((file) => !isModule(file))];
}

/** The lines of `candidate` to show: the whole block, or `maxLines` of it around the frame (from its header). */
function shownRange(candidate: Candidate, maxLines: number): { start: number; end: number } {
  const { block, focus } = candidate;
  if (block.end - block.start + 1 <= maxLines) return { start: block.start, end: block.end };
  if (focus === undefined) return { start: block.start, end: block.start + maxLines - 1 };
  const start = Math.max(block.start, Math.min(focus - Math.floor(maxLines / 2), block.end - maxLines + 1));
  return { start, end: start + maxLines - 1 };
}

/**
 * The snippets to show, in order (traceback through modules, innermost first; the goal's definitions; the failing
 * tests; traceback frames in tests), each block once, until `maxChars`; the first is always shown (cut to fit).
 */
export function localise(input: {
  evidence: FailureEvidence;
  goalTexts: readonly string[];
  /** Texts of the candidate files (the frames', the failing tests', the files defining the goal's names). */
  files: ReadonlyMap<string, string>;
  maxChars: number;
  maxBlockLines?: number;
}): Localisation {
  const maxLines = input.maxBlockLines ?? MAX_BLOCK_LINES;
  const snippets: CodeSnippet[] = [];
  const omitted: string[] = [];
  let used = 0;
  const covered = (file: string, block: CodeBlock) =>
    snippets.some(
      (s) => s.file === file && (s.whole?.start ?? s.start) <= block.start && block.end <= (s.whole?.end ?? s.end),
    );
  for (const candidate of candidatesOf(input)) {
    const { file, block } = candidate;
    if (covered(file, block)) continue;
    const label = `${file}:${block.start}-${block.end} (${block.name})`;
    if (omitted.includes(label)) continue;
    const range = shownRange(candidate, maxLines);
    let text = numberedLines(input.files.get(file) ?? '', range.start, range.end);
    if (used + text.length > input.maxChars) {
      if (snippets.length > 0) {
        omitted.push(label);
        continue;
      }
      text = text.slice(0, Math.max(0, input.maxChars)).replace(/\n[^\n]*$/, '');
      range.end = range.start + text.split('\n').length - 1;
    }
    used += text.length;
    const cut = range.start !== block.start || range.end !== block.end;
    snippets.push({
      file,
      name: block.name,
      ...range,
      why: candidate.why,
      text,
      ...(cut ? { whole: { start: block.start, end: block.end } } : {}),
    });
  }
  return { snippets, omitted };
}
