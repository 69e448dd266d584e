// What a test run at the base says before the coder's first turn: the failing test ids, the assertion lines and the
// traceback's frames in repository files, read from pytest's own output (long or short tracebacks, and Python's
// `File "…", line N, in f` frames of collection errors). Pure: the output and the repository's listing in.

/** One frame of a traceback, in a repository file (repo-relative path, 1-based line). */
export interface TracebackFrame {
  file: string;
  line: number;
  /** The function, when the output names it (short tracebacks, Python frames); the code names it otherwise. */
  function?: string;
}

export interface FailureEvidence {
  /** Failing and erroring test ids, in the order the run reported them. */
  failing: string[];
  /** pytest's `E` lines (the assertion and the exception), each failure's first few, deduplicated. */
  assertions: string[];
  /** Frames in repository files, each failure's outermost first, deduplicated. */
  frames: TracebackFrame[];
}

const MAX_ASSERTIONS = 24;
const MAX_ASSERTIONS_PER_FAILURE = 6;
const MAX_FRAMES = 16;
const MAX_FAILING = 20;
const MAX_LINE_CHARS = 300;

// `src/tomli/_parser.py:77: AttributeError` (long), `tests/test_misc.py:31: ` (long, outer frame), `x.py:3: in f` (short).
const pytestFrame = /^([^\s:][^:]*\.py):(\d+):(?:\s+in\s+([A-Za-z_][A-Za-z0-9_]*)|\s.*)?\s*$/;
// Python's own traceback: `  File "/abs/src/pkg/mod.py", line 12, in parse`.
const pythonFrame = /^\s*File "([^"]+\.py)", line (\d+), in ([A-Za-z_<>][A-Za-z0-9_<>]*)/;
// The short summary: `FAILED tests/test_x.py::test_y - AssertionError: …` or `ERROR tests/test_x.py - …`.
const summaryLine = /^(FAILED|ERROR) (\S+\.py(?:::\S+)?)(?: - .*)?$/;
// A failure's header: `____ TestMiscellaneous.test_incorrect_load ____`, `____ ERROR collecting tests/x.py ____`.
const sectionHeader = /^_{3,} .+ _{3,}$/;

const clip = (line: string) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} […]` : line);

/** `file` as a repo-relative path when it is one of the repository's files (absolute paths under `root` too). */
function repoPath(file: string, isRepoFile: (path: string) => boolean, root?: string): string | undefined {
  let relative = file.replace(/^\.\//, '');
  if (root !== undefined && relative.startsWith(`${root.replace(/\/$/, '')}/`))
    relative = relative.slice(root.replace(/\/$/, '').length + 1);
  return isRepoFile(relative) ? relative : undefined;
}

/**
 * The evidence in `output` (pytest's stdout): `failingIds` first (from the run's report), then ids its short summary
 * names; `E` lines and frames in files `isRepoFile` accepts (site-packages and the standard library are left out).
 */
export function readFailureEvidence(input: {
  output: string;
  failingIds?: readonly string[];
  isRepoFile: (path: string) => boolean;
  /** The worktree's absolute path as the tests saw it, to read absolute frames. */
  root?: string;
}): FailureEvidence {
  const failing = new Set(input.failingIds ?? []);
  const assertions: string[] = [];
  const frames: TracebackFrame[] = [];
  const seenFrames = new Set<string>();
  let inFailure = false;
  let assertionsHere = 0;
  const addFrame = (file: string, line: number, fn?: string) => {
    const relative = repoPath(file, input.isRepoFile, input.root);
    const key = `${relative}:${line}`;
    if (relative === undefined || seenFrames.has(key) || frames.length >= MAX_FRAMES) return;
    seenFrames.add(key);
    frames.push({ file: relative, line, ...(fn === undefined ? {} : { function: fn }) });
  };
  for (const raw of input.output.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (sectionHeader.test(line)) {
      inFailure = true;
      assertionsHere = 0;
      continue;
    }
    if (/^={3,} .*(short test summary|passed|failed|error)/i.test(line)) inFailure = false;
    const summary = summaryLine.exec(line);
    if (summary?.[2] !== undefined) {
      failing.add(summary[2]);
      continue;
    }
    const python = pythonFrame.exec(line);
    if (python?.[1] !== undefined) {
      addFrame(python[1], Number(python[2]), python[3]);
      continue;
    }
    if (!inFailure) continue;
    const frame = pytestFrame.exec(line);
    if (frame?.[1] !== undefined) {
      addFrame(frame[1], Number(frame[2]), frame[3]);
      continue;
    }
    if (/^E\s/.test(line) && assertionsHere < MAX_ASSERTIONS_PER_FAILURE && assertions.length < MAX_ASSERTIONS) {
      const text = clip(line.trimEnd());
      assertionsHere += 1;
      if (!assertions.includes(text)) assertions.push(text);
    }
  }
  return { failing: [...failing].slice(0, MAX_FAILING), assertions, frames };
}
