// run_tests: the task's test command inside the attempt, optionally narrowed to node ids or a -k expression, so the
// coder checks its own work before it finishes. Replies with counts, failing ids, patterns and a bounded excerpt.
import path from 'node:path';
import { z } from 'zod';
import { readRunSites, regressionNotes, type RunSites } from '../../../domain/evidence-first/regressions.js';
import type { TestRunResult } from '../../../domain/records.js';
import { countInActivity } from '../../activity-metrics.js';
import { isPytestCommand } from '../../tests/pytest-command.js';
import { defineTool } from './define-tool.js';
import { runTaskTests } from './test-runner.js';
import type { ToolContext } from './types.js';

/** Default most in-attempt runs (the task's budget may end them sooner). */
export const DEFAULT_MAX_TEST_RUNS = 5;
const EXCERPT_CHARS = 3_000;
const MAX_FAILING_IDS = 20;

// A node id is a test file path, then `::` parts; never an option (no leading '-') and no shell syntax.
const nodeIdPattern = /^[A-Za-z0-9_][A-Za-z0-9_./-]*\.py(::[A-Za-z0-9_.\-[\],= ]+)*$/;
const keywordPattern = /^[A-Za-z0-9_ ().[\]-]+$/;

const argsSchema = z.strictObject({
  tests: z
    .array(z.string().regex(nodeIdPattern, "must be a pytest node id such as 'tests/test_calc.py::test_add'"))
    .max(50)
    .optional()
    .describe("Pytest node ids to run, e.g. ['tests/test_calc.py::test_add'] (default: the whole suite)."),
  k: z
    .string()
    .regex(keywordPattern, "must be a pytest -k expression of names with 'and', 'or', 'not' and parentheses")
    .refine((value) => !value.trim().startsWith('-'), 'must not start with -')
    .optional()
    .describe("A pytest -k expression selecting tests by name, e.g. 'add and not slow'."),
});

/**
 * What a small model means by run_tests arguments the schema refuses: `tests: true` (or "all", "", null, []) and an
 * empty `k` ask for the whole suite, one node id as a string is a list of one, and a node id as `k` is its test's name. The 1.5B, shown only
 * `run_tests(tests?, k?)` in its prompt, sent `{"tests": true, "k": ""}` and was refused turn after turn.
 */
export function leniently(args: Record<string, unknown>): Record<string, unknown> {
  const { tests, k } = args;
  if (tests === true || tests === null || tests === '' || (Array.isArray(tests) && tests.length === 0))
    delete args.tests;
  else if (typeof tests === 'string') args.tests = tests.trim().toLowerCase() === 'all' ? undefined : [tests];
  if (args.tests === undefined) delete args.tests;
  if (k === null || (typeof k === 'string' && k.trim() === '')) delete args.k;
  // A node id sent as k (`boltons/strutils.py::test_multi_replace_empty_mapping`, the 1.5B's, with a path that is not
  // the test's) selects its test by name; a bare file path selects nothing more than the whole suite.
  else if (typeof k === 'string' && k.includes('::')) args.k = k.split('::').at(-1)?.replace(/\[.*$/, '').trim();
  else if (typeof k === 'string' && /\.py$/.test(k.trim())) delete args.k;
  if (args.k === '') delete args.k;
  return args;
}

/** The argv of one run: the task's command, then the node ids or the -k expression (pytest only). */
export function narrowCommand(
  command: string[],
  narrowing: { tests?: string[]; k?: string },
): { success: true; argv: string[] } | { success: false; error: string } {
  const wanted = (narrowing.tests?.length ?? 0) > 0 || narrowing.k !== undefined;
  if (!wanted) return { success: true, argv: command };
  if (!isPytestCommand(command)) {
    return {
      success: false,
      error: `error: the test command (${command.join(' ')}) is not pytest, so it cannot be narrowed; call run_tests with no arguments.`,
    };
  }
  return {
    success: true,
    argv: [...command, ...(narrowing.k === undefined ? [] : ['-k', narrowing.k.trim()]), ...(narrowing.tests ?? [])],
  };
}

/**
 * The reply to the model: counts, failing ids, what broke compared with the base (when the run knows it), patterns, the
 * end of the output and where the full log is.
 */
export function formatTestReply(result: TestRunResult, runsLeft: number, base?: RunSites): string {
  const c = result.counts;
  const lines = [
    `tests ${result.outcome}: ${c.total} total, ${c.passed} passed, ${c.failed} failed, ${c.errors} errors, ${c.skipped} skipped (exit ${String(result.exitCode)}, ${(result.durationMs / 1000).toFixed(1)} s)`,
  ];
  if (result.reason) lines.push(`why: ${result.reason}`);
  const failing = result.cases
    .filter((entry) => entry.outcome === 'failed' || entry.outcome === 'error')
    .map((entry) => entry.id);
  if (failing.length > 0) {
    lines.push('failing:', ...failing.slice(0, MAX_FAILING_IDS).map((id) => `- ${id}`));
    if (failing.length > MAX_FAILING_IDS) lines.push(`- ... and ${failing.length - MAX_FAILING_IDS} more`);
    if (base) lines.push(...regressionNotes(base, readRunSites(result.stdoutExcerpt, result.cases)));
  }
  for (const pattern of result.patterns ?? [])
    lines.push(
      `pattern: ${pattern.type} (${pattern.symbols.slice(0, 3).join(', ') || 'no symbol'}): ${pattern.evidence}`,
    );
  if (result.outcome !== 'passed') {
    const excerpt = result.stdoutExcerpt.slice(-EXCERPT_CHARS).trim();
    if (excerpt !== '') lines.push('output (end):', '```', excerpt, '```');
    const stderr = result.stderrExcerpt.slice(-1000).trim();
    if (stderr !== '') lines.push('stderr (end):', '```', stderr, '```');
  }
  if (result.log) lines.push(`full log: ${result.log.path}`);
  lines.push(`in-attempt test runs left: ${runsLeft}`);
  return lines.join('\n');
}

function remainingTime(context: ToolContext, timeoutMs: number): number {
  const deadline = context.tests?.deadlineAt;
  return deadline === undefined ? timeoutMs : Math.min(timeoutMs, deadline - Date.now());
}

export const runTestsTool = defineTool({
  name: 'run_tests',
  capability: 'RUN_TESTS',
  description: `Run the task's tests now (all, or only the given node ids or -k expression) to check your change before you finish; at most ${DEFAULT_MAX_TEST_RUNS} runs per attempt unless the task says otherwise.`,
  args: argsSchema,
  lenient: leniently,
  async run(args, context) {
    const tests = context.tests;
    if (!tests)
      return {
        reply:
          'error: this run has no test command, so run_tests cannot run; finish and the test node will run the tests.',
      };
    const used = context.telemetry.inAttemptTestRuns ?? 0;
    if (used >= tests.maxRuns)
      return {
        reply: `error: the limit of ${tests.maxRuns} test runs in this attempt is spent; finish when you think the change is right.`,
      };
    const narrowed = narrowCommand(tests.command, args);
    if (!narrowed.success) return { reply: narrowed.error };
    const narrowing = narrowed.argv.join('\0');
    const repeated = repeatedRun(context, narrowing);
    if (repeated !== undefined) return { reply: repeated };
    const timeoutMs = remainingTime(context, tests.timeoutMs);
    if (timeoutMs <= 0) return { reply: 'error: the task has no wall time left for a test run; finish now.' };
    context.telemetry.inAttemptTestRuns = used + 1;
    countInActivity('taskloop_in_attempt_test_runs');
    const artifactDir = path.join(tests.artifactDir, 'coder-tests', `run-${used + 1}`);
    const result = await runTaskTests(tests, {
      worktreePath: context.root,
      argv: narrowed.argv,
      artifactDir,
      timeoutMs,
    });
    context.lastTestRun = {
      passed: result.outcome === 'passed',
      mutationsBefore: context.telemetry.mutationOperations,
      summary: `${result.outcome}: ${result.counts.passed} of ${result.counts.total} passed`,
      narrowing,
    };
    const reply = formatTestReply(result, tests.maxRuns - used - 1, context.baseTestRun);
    return { reply: result.counts.total === 0 && narrowedBy(args) ? `${noTestMatched(args)}\n${reply}` : reply };
  },
});

/**
 * Why this run is not made (nothing spent), or undefined: coached runs do not repeat a failing run of the same tests
 * with no edit since, which would fail the same way (the 1.5B re-ran the tests three times after one wrong edit). A
 * note, not an error: nothing failed, so a finish after it in the same reply is judged as if the run had been made.
 */
function repeatedRun(context: ToolContext, narrowing: string): string | undefined {
  const last = context.lastTestRun;
  if (!context.coaching?.refuseRepeatedTestRun || !last || last.passed || last.narrowing !== narrowing)
    return undefined;
  if (last.mutationsBefore !== context.telemetry.mutationOperations) return undefined;
  context.telemetry.refusedToolCalls = (context.telemetry.refusedToolCalls ?? 0) + 1;
  return (
    `note: run_tests not run (no run spent): nothing changed since the last run of these tests, which ${last.summary}; ` +
    'it would fail the same way. Read that failure, change the code with replace_in_file so that the failing ' +
    'assertion holds, then run_tests again.'
  );
}

const narrowedBy = (args: { tests?: string[]; k?: string }) => (args.tests?.length ?? 0) > 0 || args.k !== undefined;

/**
 * Said first when a narrowed run collected no test: the ids or -k named no test (the 1.5B ran
 * tests/test_strutils.py::test_pluralize, which does not exist, and read pytest's usage error as its code's fault).
 */
function noTestMatched(args: { tests?: string[]; k?: string }): string {
  const asked = args.k !== undefined ? `-k ${JSON.stringify(args.k)}` : (args.tests ?? []).join(' ');
  return (
    `error: no test matched ${asked}: that names no test of this repository, so nothing was checked. ` +
    "Run the failing test ids the evidence names, or call run_tests with no arguments to run all the task's tests."
  );
}
