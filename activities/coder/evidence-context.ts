// The opening of an evidence-first coder's first message: the task's tests run once at the base (in the sandbox,
// through the test node's runner), then the files their traceback, the failing tests and the goal name are read, and
// the pure functions of domain/evidence-first decide what is shown, in what order, within what budget.
import path from 'node:path';
import type { ContextSection } from '../../domain/context-budget.js';
import { rankRelevantFiles } from '../../domain/context-budget.js';
import { evidenceSections, type BaseRun } from '../../domain/evidence-first/evidence-prompt.js';
import { readFailureEvidence } from '../../domain/evidence-first/failure-evidence.js';
import type { ShownLines } from '../../domain/edit-match.js';
import { localise, type Localisation } from '../../domain/evidence-first/localise.js';
import { isTestFile } from '../../domain/paths.js';
import type { TestRunResult } from '../../domain/records.js';
import { readConfinedFile } from '../untrusted-files.js';
import { findDefinitions } from './relevant-files.js';
import { runTaskTests, type InAttemptTests } from './tools/test-runner.js';

/** Most characters of code the opening shows (a few functions; the model reads the rest with read_file). */
export const MAX_CODE_CHARS = 12_000;
const MAX_FILE_BYTES = 1024 * 1024;
// Files defining the goal's names that are read, best ranked first (each read is bounded, the snippets more so).
const MAX_DEFINING_FILES = 4;

/** The test run at the base: the task's whole command, before any change; `not run` without a command or time. */
async function runAtBase(worktreePath: string, tests: InAttemptTests | undefined): Promise<TestRunResult | string> {
  if (!tests) return 'this run has no test command';
  const left =
    tests.deadlineAt === undefined ? tests.timeoutMs : Math.min(tests.timeoutMs, tests.deadlineAt - Date.now());
  if (left <= 0) return 'the task has no wall time left for a test run';
  return runTaskTests(tests, {
    worktreePath,
    argv: tests.command,
    artifactDir: path.join(tests.artifactDir, 'coder-tests', 'base'),
    timeoutMs: left,
  });
}

const baseRunOf = (command: readonly string[], run: TestRunResult | string): BaseRun =>
  typeof run === 'string'
    ? { command, outcome: 'not run', reason: run }
    : { command, outcome: run.outcome, counts: run.counts, ...(run.reason ? { reason: run.reason } : {}) };

/** The code lines the opening shows outside the tests, by file: where an edit whose old recurs is taken to belong. */
function shownCodeOf(localisation: Localisation): Map<string, ShownLines[]> {
  const shown = new Map<string, ShownLines[]>();
  for (const snippet of localisation.snippets) {
    if (isTestFile(snippet.file)) continue;
    const lines = { start: snippet.start, end: snippet.end, name: snippet.name };
    shown.set(snippet.file, [...(shown.get(snippet.file) ?? []), lines]);
  }
  return shown;
}

/**
 * The opening sections (evidence, goal, code, modules) and the base run, for the first message of an attempt, and the
 * code lines it shows.
 */
export async function gatherEvidenceOpening(input: {
  worktreePath: string;
  goal: string;
  hint?: string;
  files: string[];
  tests?: InAttemptTests;
  /** Most characters of code to show (MAX_CODE_CHARS by default). */
  maxCodeChars?: number;
}): Promise<{
  opening: ContextSection[];
  run?: TestRunResult;
  shown: Map<string, ShownLines[]>;
  assertions: string[];
}> {
  const { worktreePath, files } = input;
  const listed = new Set(files);
  const goalTexts = [input.goal, input.hint ?? ''];
  const [run, definedIn] = await Promise.all([
    runAtBase(worktreePath, input.tests),
    findDefinitions(worktreePath, goalTexts),
  ]);
  const output = typeof run === 'string' ? '' : `${run.stdoutExcerpt}\n${run.stderrExcerpt}`;
  const failingIds =
    typeof run === 'string'
      ? []
      : run.cases.filter((entry) => entry.outcome === 'failed' || entry.outcome === 'error').map((entry) => entry.id);
  const evidence = readFailureEvidence({
    output,
    failingIds,
    isRepoFile: (file) => listed.has(file),
    root: worktreePath,
  });
  // The assertion lines name functions too (`where -1 = add(1, 2)`): after the goal's own names.
  const namingTexts = [...goalTexts, ...evidence.assertions];
  const definedByEvidence = await findDefinitions(worktreePath, evidence.assertions);
  for (const [file, count] of definedByEvidence) definedIn.set(file, (definedIn.get(file) ?? 0) + count);
  const defining = rankRelevantFiles([...definedIn.keys()].sort(), namingTexts, MAX_DEFINING_FILES, definedIn);
  const wanted = new Set([
    ...evidence.frames.map((frame) => frame.file),
    ...evidence.failing.map((id) => id.split('::')[0] ?? ''),
    ...defining,
  ]);
  const texts = new Map<string, string>();
  for (const file of [...wanted].filter((name) => listed.has(name))) {
    // Only regular files inside the worktree: the tests that just ran may have left links or FIFOs.
    const read = await readConfinedFile(worktreePath, file, MAX_FILE_BYTES);
    if (read.ok && !read.text.includes('\0')) texts.set(file, read.text);
  }
  const localisation = localise({
    evidence,
    goalTexts: namingTexts,
    files: texts,
    maxChars: input.maxCodeChars ?? MAX_CODE_CHARS,
  });
  const opening = evidenceSections({
    goal: input.goal,
    run: baseRunOf(input.tests?.command ?? [], run),
    evidence,
    localisation,
    files,
  });
  return {
    opening,
    shown: shownCodeOf(localisation),
    assertions: evidence.assertions,
    ...(typeof run === 'string' ? {} : { run }),
  };
}
