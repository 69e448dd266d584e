// What each adaptation adds to the coder's context: the definitions, modules and tests the failure names, read from
// the worktree and cut to a budget. A strategy that finds nothing adds nothing (and is then not shown).
import path from 'node:path';
import type { Strategy } from '../../domain/learning/patterns/types.js';
import {
  clipSource,
  failureSymbols,
  findDefinition,
  importedModules,
  moduleFiles,
  nodeIdsIn,
  pythonFilesIn,
} from '../../domain/learning/source-excerpts.js';
import { readConfinedFile } from '../untrusted-files.js';
import { runReadOnlyGit } from './tools/git-command.js';

const MAX_BLOCK_CHARS = 3_000;
const MAX_BLOCKS = 4;

// A source file the evidence names. Tracebacks, node ids and imports come from test output and repository code, so
// a name may be `../../etc/x.py`, an absolute host path, a link out of the worktree or a FIFO: only a regular file
// whose real path is inside the worktree is read, bounded, never blocking (activities/untrusted-files.ts).
const MAX_SOURCE_BYTES = 1024 * 1024;
async function read(root: string, file: string): Promise<string | undefined> {
  const found = await readConfinedFile(root, file, MAX_SOURCE_BYTES);
  return found.ok ? found.text : undefined;
}
const block = (label: string, text: string) => `${label}:\n\`\`\`python\n${text.replace(/\n$/, '')}\n\`\`\``;

/** Files that define any of `symbols` (a `def` or `class` line), as [file, symbol] pairs, tracked Python files only. */
async function locateDefinitions(root: string, symbols: string[]): Promise<[string, string][]> {
  if (symbols.length === 0) return [];
  const pattern = `^[[:space:]]*(async[[:space:]]+def|def|class)[[:space:]]+(${symbols.join('|')})[^A-Za-z0-9_]`;
  const grep = await runReadOnlyGit(root, ['grep', '-n', '-E', '-o', '-z', '-e', pattern, '--', '*.py']);
  const pairs: [string, string][] = [];
  for (const line of grep.stdout.split('\n')) {
    const [file, , text] = line.split('\0');
    const symbol = symbols.find((candidate) => new RegExp(`\\b${candidate}\\b`).test(text ?? ''));
    if (file && symbol && !pairs.some(([f, s]) => f === file && s === symbol)) pairs.push([file, symbol]);
  }
  // Definitions in the code under test first, tests' own helpers after.
  return pairs.sort(([a], [b]) => Number(/(^|\/)tests?\//.test(a)) - Number(/(^|\/)tests?\//.test(b)));
}

async function definitions(root: string, evidence: string[], signatureOnly: boolean): Promise<string[]> {
  const located = await locateDefinitions(root, failureSymbols(evidence).slice(0, 12));
  const blocks: string[] = [];
  for (const [file, symbol] of located.slice(0, MAX_BLOCKS)) {
    const source = await read(root, file);
    const found = source === undefined ? undefined : findDefinition(source, symbol, { signatureOnly });
    if (found) blocks.push(block(`${symbol} in ${file}`, clipSource(found, MAX_BLOCK_CHARS, file)));
  }
  return blocks;
}

async function failingTests(root: string, evidence: string[]): Promise<string[]> {
  const blocks: string[] = [];
  for (const id of nodeIdsIn(evidence).slice(0, MAX_BLOCKS)) {
    const [file = '', ...parts] = id.split('::');
    const source = await read(root, file);
    if (source === undefined) continue;
    const name = (parts.at(-1) ?? '').replace(/\[.*$/, '');
    const found = findDefinition(source, name);
    blocks.push(block(found ? id : file, clipSource(found ?? source, MAX_BLOCK_CHARS, file)));
  }
  return blocks;
}

async function dependencies(root: string, evidence: string[]): Promise<string[]> {
  // The files the failure names (a collection error names only the file), and the modules they import.
  const testFiles = pythonFilesIn(evidence).slice(0, 8);
  const modules = new Set<string>();
  for (const file of testFiles)
    for (const module of importedModules((await read(root, file)) ?? '')) modules.add(module);
  const blocks: string[] = [];
  for (const module of modules) {
    if (blocks.length === MAX_BLOCKS) break;
    for (const file of moduleFiles(module)) {
      const source = await read(root, file);
      if (source === undefined) continue;
      blocks.push(block(`module ${module} (${file})`, clipSource(source, MAX_BLOCK_CHARS, file)));
      break;
    }
  }
  return blocks;
}

/** The content an adaptation's strategy adds, from the evidence of earlier attempts; empty when there is none. */
export async function readAdaptationContent(root: string, strategy: Strategy, evidence: string[]): Promise<string[]> {
  switch (strategy) {
    case 'fix_signatures':
      return definitions(root, evidence, true);
    case 'include_source_excerpt':
      return definitions(root, evidence, false);
    case 'increase_tests_shown':
      return failingTests(root, evidence);
    case 'expand_dependency_context':
      return dependencies(root, evidence);
    case 'show_error_location':
      return errorLocations(root, evidence);
    case 'prioritize_constants':
      return [];
  }
}

/** The lines around each `file line N` / `File "file", line N` the evidence names (a syntax error's place). */
async function errorLocations(root: string, evidence: string[]): Promise<string[]> {
  const places = new Map<string, number>();
  for (const match of evidence.join('\n').matchAll(/(?:File ")?([\w./-]+\.py)"?,? line (\d+)/g)) {
    const file = path.normalize(match[1] ?? '').replace(/^\.\//, '');
    if (!places.has(file)) places.set(file, Number(match[2]));
  }
  const blocks: string[] = [];
  for (const [file, line] of [...places].slice(0, MAX_BLOCKS)) {
    const source = await read(root, file);
    if (source === undefined) continue;
    const lines = source.split('\n');
    const from = Math.max(0, line - 6);
    const window = lines.slice(from, line + 5).map((text, i) => `${String(from + i + 1).padStart(4)}  ${text}`);
    blocks.push(block(`${file} around line ${line}`, window.join('\n')));
  }
  return blocks;
}

/** Strategies whose instruction stands on its own; the others are shown only with content. */
export const selfContainedStrategies: readonly Strategy[] = ['prioritize_constants'];
