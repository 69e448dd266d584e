// What a test run after the model's edit shows that the base run did not: a test that passed at the base and fails now,
// and a test that now fails at an earlier line of its own than it did at the base (the edit fixed the assertion that
// failed and broke one before it). Said in the run_tests reply, because a small model reads only the newest failure:
// the 1.5B fixed median's even case, saw the odd case fail, and re-ran the tests three times without an edit.
// Pure: pytest's output and per-test outcomes in, lines of text out.
import { isTestFile } from '../paths.js';

/** Where a failing test stopped in its own file: the line and, when pytest printed it, that line's source. */
export interface FailureSite {
  file: string;
  line: number;
  source?: string;
}

/** One run as the comparison needs it: each test's outcome, and the failing tests' sites. */
export interface RunSites {
  outcomes: Map<string, 'passed' | 'failed' | 'error' | 'skipped'>;
  sites: Map<string, FailureSite>;
}

// `____ test_median ____`, `____ TestX.test_y[1] ____` (not `ERROR collecting …`).
const header = /^_{3,} (\S+) _{3,}$/;
// `tests/test_calc.py:18: AssertionError` (long traceback) or `tests/test_calc.py:18: in test_median` (short).
const frame = /^([^\s:][^:]*\.py):(\d+):/;
// pytest marks the line that failed with `>` in long tracebacks.
const marked = /^>\s+(.*\S)\s*$/;

/** The pytest section title of a node id: `tests/x.py::TestX::test_y[1]` is `TestX.test_y[1]`. */
const titleOf = (id: string) => id.split('::').slice(1).join('.');

/** Each failing test's last site in a test file, read from pytest's long or short tracebacks. */
export function readRunSites(output: string, cases: readonly { id: string; outcome: string }[]): RunSites {
  const outcomes = new Map(
    cases.map((entry) => [entry.id, entry.outcome as 'passed' | 'failed' | 'error' | 'skipped']),
  );
  const idByTitle = new Map(
    cases.filter((entry) => entry.outcome === 'failed' || entry.outcome === 'error').map((e) => [titleOf(e.id), e.id]),
  );
  const sites = new Map<string, FailureSite>();
  let current: string | undefined;
  let lastMarked: string | undefined;
  for (const raw of output.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const section = header.exec(line);
    if (section?.[1] !== undefined || /^={3,} /.test(line)) {
      current = section?.[1] === undefined ? undefined : idByTitle.get(section[1]);
      lastMarked = undefined;
      continue;
    }
    if (current === undefined) continue;
    const mark = marked.exec(line);
    if (mark?.[1] !== undefined) lastMarked = mark[1];
    const at = frame.exec(line);
    if (at?.[1] !== undefined && isTestFile(at[1])) {
      sites.set(current, { file: at[1], line: Number(at[2]), ...(lastMarked ? { source: lastMarked } : {}) });
    }
    if (at !== null) lastMarked = undefined;
  }
  return { outcomes, sites };
}

const where = (site: FailureSite) => `${site.file}:${site.line}${site.source ? ` (\`${site.source}\`)` : ''}`;

/**
 * The lines that tell the model what its edit broke, compared with the base: tests that passed there and fail now,
 * and tests that now stop at an earlier line of the same file (that line passed at the base). Empty when none.
 */
export function regressionNotes(base: RunSites, now: RunSites): string[] {
  const notes: string[] = [];
  for (const [id, outcome] of now.outcomes) {
    if (outcome !== 'failed' && outcome !== 'error') continue;
    if (base.outcomes.get(id) === 'passed') {
      notes.push(`- ${id} passed before your change and fails now: your change broke it; keep it passing.`);
      continue;
    }
    const before = base.sites.get(id);
    const after = now.sites.get(id);
    if (!before || !after || before.file !== after.file || after.line >= before.line) continue;
    notes.push(
      `- ${id} now fails at ${where(after)}, a line the tests got past before your change (at the base it failed ` +
        `later, at ${where(before)}): the code must make both hold.`,
    );
  }
  return notes.length === 0 ? [] : ['compared with the base (before any change):', ...notes];
}
