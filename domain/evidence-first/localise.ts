// Which code the coder sees first, as Agentless localises: the functions the traceback runs through, the definitions
// the goal names, and the failing test itself, each whole (or the part around the frame when very long), with line
// numbers, in that order, within a budget. Pure: the evidence and the candidate files' texts in, snippets out.
import { definableSymbols, fileKind } from '../context-budget.js';
import type { FailureEvidence } from './failure-evidence.js';
import { blocksNamed, enclosingBlock, numberedLines, pythonBlocks, type CodeBlock } from './python-blocks.js';

export type SnippetReason = 'traceback' | 'goal' | 'called' | 'failing test';

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

/** A dotted name the goal writes, found: the block its last part names, in the module its first parts name. */
export interface QualifiedTarget {
  file: string;
  block: CodeBlock;
  /** The class holding the block, when the name goes through one (`IndexedSet.index`). */
  owner?: CodeBlock;
  /** Every part of the dotted name: these are not searched again as bare names. */
  parts: string[];
}

/** The module files a dotted name's leading parts name (`boltons.setutils` is `boltons/setutils.py`), and the rest. */
function moduleOf(parts: readonly string[], modules: readonly string[]): { files: string[]; rest: string[] } {
  for (let i = parts.length - 1; i >= 1; i--) {
    const stem = parts.slice(0, i).join('/');
    const names = [`${stem}.py`, `${stem}/__init__.py`];
    const files = modules.filter((file) => names.some((name) => file === name || file.endsWith(`/${name}`)));
    if (files.length > 0) return { files, rest: parts.slice(i) };
  }
  return { files: [...modules], rest: [...parts] };
}

/** The blocks `names` walk through, each inside the one before (`IndexedSet`, then its `index`); none if one is missing. */
function blockChain(text: string, names: readonly string[]): CodeBlock[] {
  const blocks = pythonBlocks(text);
  const chain: CodeBlock[] = [];
  for (const name of names) {
    const outer = chain.at(-1);
    const next = blocks.find(
      (block) => block.name === name && (!outer || (block.start > outer.start && block.end <= outer.end)),
    );
    if (!next) return [];
    chain.push(next);
  }
  return chain;
}

/**
 * The definitions the goal's dotted names reach (`boltons.setutils.IndexedSet.index()` is the method `index` of
 * `IndexedSet` in boltons/setutils.py): searched as bare words, the 1.5B was shown the head of the class (80 lines of
 * its docstring) and an `index` of another module, never the method named.
 */
export function qualifiedTargets(texts: readonly string[], files: ReadonlyMap<string, string>): QualifiedTarget[] {
  const modules = [...files.keys()].filter((file) => fileKind(file) === 'module').sort();
  const found: QualifiedTarget[] = [];
  const names = new Set(
    texts.flatMap((text) => [...text.matchAll(/\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+/g)].map((m) => m[0])),
  );
  for (const name of names) {
    const parts = name.split('.');
    const { files: within, rest } = moduleOf(parts, modules);
    // A bare name in any module is the bare search's; a dotted one must name a module or go through a class.
    if (rest.length < (within.length === modules.length ? 2 : 1)) continue;
    for (const file of within) {
      const chain = blockChain(files.get(file) ?? '', rest);
      const block = chain.at(-1);
      if (!block || found.some((target) => target.file === file && target.block.start === block.start)) continue;
      const owner = chain
        .slice(0, -1)
        .reverse()
        .find((outer) => outer.kind === 'class');
      found.push({ file, block, parts, ...(owner ? { owner } : {}) });
    }
  }
  // A class a name reaches whose method another name reaches (pytest's `<bound method IndexedSet.index of
  // <boltons.setutils.IndexedSet object>>`) adds only its head: the method is what is shown.
  const holdsAnother = (target: QualifiedTarget) =>
    found.some(
      (other) =>
        other !== target &&
        other.file === target.file &&
        target.block.start < other.block.start &&
        other.block.end <= target.block.end,
    );
  return found.filter((target) => !holdsAnother(target));
}

/** The methods of `owner` that `block` calls as `self.name(`: where a method named by the goal hands its work on. */
function calledMethods(text: string, block: CodeBlock, owner: CodeBlock): CodeBlock[] {
  const body = text
    .split('\n')
    .slice(block.start - 1, block.end)
    .join('\n');
  const called = new Set([...body.matchAll(/\bself\.([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]));
  return pythonBlocks(text).filter(
    (method) =>
      called.has(method.name) && method.kind === 'def' && method.start > owner.start && method.end <= owner.end,
  );
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
  const targets = qualifiedTargets(input.goalTexts, files);
  const reached = new Set(targets.flatMap((target) => target.parts));
  const qualified = targets.flatMap(({ file, block, owner }) => [
    { file, block, why: 'goal' as const },
    ...(owner ? calledMethods(files.get(file) ?? '', block, owner) : []).map((called) => ({
      file,
      block: called,
      why: 'called' as const,
    })),
  ]);
  const bare = goalNames(input.goalTexts)
    .filter((name) => !reached.has(name))
    .flatMap((name) =>
      modules.flatMap((file) =>
        blocksNamed(files.get(file) ?? '', name).map((block) => ({ file, block, why: 'goal' as const })),
      ),
    );
  const goal = [...qualified, ...bare];
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
  // Shown already: inside the lines a snippet shows, or the very block a snippet shows part of (a method inside the
  // unshown rest of a long class is not shown by the class's head).
  const covered = (file: string, block: CodeBlock) =>
    snippets.some(
      (s) =>
        s.file === file &&
        ((s.start <= block.start && block.end <= s.end) ||
          ((s.whole?.start ?? s.start) === block.start && (s.whole?.end ?? s.end) === block.end)),
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
