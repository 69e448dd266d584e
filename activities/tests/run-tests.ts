// The test node: runs the task's test command in the worktree, through the sandbox, and returns a
// TestRunResult (a failing run is a value). The review's path rules run first: a refused change never runs.
import { existsSync } from 'node:fs';
import { ApplicationFailure } from '@temporalio/common';
import type { Finding, ReviewResult, TestRunResult } from '../../domain/records.js';
import { IGNORED_NAMED } from '../git/ignored-files.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import { readPythonSources } from '../review/python-syntax.js';
import { pathRuleFindings, type PathPolicy } from './path-policy.js';
import { reviewChange, stageChange, type RuleReviewOptions } from './review-before-tests.js';
import { runCommand, startHeldRun, testRunCancelled, type HeldTestRun } from './run-command.js';

export { startHeldRun, testRunCancelled, type HeldTestRun } from './run-command.js';

export interface RunTestsInput {
  worktreePath: string;
  /** argv, run without a shell, e.g. ['python', '-m', 'pytest']. */
  command: string[];
  /** The task's own variables; the sandbox builds the rest of the environment (never the worker's secrets). */
  testEnv: Record<string, string>;
  timeoutMs: number;
  secretValues: string[];
  artifactDir: string;
  hostId: string;
  /** Mode, network and limits of the run (see activities/sandbox/policy.ts). */
  sandbox: SandboxPolicy;
  /** The review's path rules, checked before anything runs (a refused test edit never executes). */
  pathPolicy?: PathPolicy;
  /** With `pathPolicy`: every rule of the review runs on the change first (one diff), and the result carries it. */
  review?: RuleReviewOptions;
  /** Where the running process group is recorded, so a retry or a restarted worker can kill it. */
  processDir?: string;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
  /** Most cases kept in the result (failing ones first); default 500. */
  maxCases?: number;
  /** How often to heartbeat while the command runs; default HEARTBEAT_INTERVAL_MS (1 s). */
  heartbeatIntervalMs?: number;
  /**
   * Whether the command may start, decided while the run is set up and the change checked (the coder activity asks its
   * workflow whether a pause came: activities/tests-after-coder.ts). False: nothing runs and `TestsHeld` is thrown.
   */
  mayStart?: Promise<boolean>;
}

/** Thrown when RunTestsInput.mayStart said no: the tests never started. */
export class TestsHeld extends Error {
  override name = 'TestsHeld';
  constructor() {
    super('the tests were held before they started');
  }
}

/**
 * Runs the tests; timeout and cancellation kill the whole process tree. Logs (scrubbed) become artifacts
 * test-stdout.log, test-stderr.log and junit.xml. Throws only for bad input (non-retryable) or on cancellation.
 * `prepared`: a held run of this same input that the caller started earlier (startHeldRun), used while it still waits;
 * runTests decides it, or discards it, whatever happens.
 */
export async function runTests(
  input: RunTestsInput,
  prepared?: HeldTestRun,
): Promise<TestRunResult & { review?: ReviewResult }> {
  try {
    checkInput(input);
  } catch (error) {
    await discard(prepared);
    throw error;
  }
  const { pathPolicy, worktreePath } = input;
  if (!pathPolicy || !input.review) {
    await discard(prepared);
    // The node's own run is staged as the rules review's (its ignored files removed: the tests see what the commit
    // would hold); the coder's runs (no path policy) see its worktree as it is.
    const change = pathPolicy ? await stageChange(worktreePath, pathPolicy) : undefined;
    const refused = change && pathPolicy ? pathRuleFindings(change.changedFiles, pathPolicy) : [];
    await unlessHeld(input.mayStart);
    if (refused.length > 0) return refusedResult(refused, input.sandbox);
    return withIgnoredRemoved(await runCommand(input), change?.ignoredRemoved ?? []);
  }
  // The change is staged and its paths listed (its git processes asked for first: they are the way to the tests) while
  // the sandbox starts (or, `prepared`, waits already), its command held at a gate: a refused change never runs (the
  // gate stays shut and the held run is killed), an accepted one starts at once.
  const staging = stageChange(worktreePath, pathPolicy);
  // Awaited below; until then a failure must not count as an unhandled rejection (it ends the worker).
  staging.catch(() => undefined);
  const held = await heldRunFor(input, prepared);
  try {
    const change = await staging;
    const refused = pathRuleFindings(change.changedFiles, pathPolicy);
    if (refused.length > 0) {
      await unlessHeld(input.mayStart);
      return refusedResult(refused, input.sandbox);
    }
    // The content rules run while the tests do, on the staged diff and the Python files as staged (read before the
    // tests may touch them).
    const sources = await readPythonSources(worktreePath, change.changedFiles);
    await unlessHeld(input.mayStart);
    held.decide(true);
    const { review: options } = input;
    const [result, review] = await Promise.all([
      held.result,
      change.diff().then((diff) => {
        // Only the staged change is reviewed (the listing may name a path more, see stageAndListChanges).
        const staged = sources.filter((source) => diff.changedFiles.includes(source.name));
        return reviewChange(worktreePath, pathPolicy, options, diff, staged);
      }),
    ]);
    return { ...withIgnoredRemoved(result, change.ignoredRemoved), review };
  } finally {
    // No process outlives the activity: a held run is over (killed unstarted) before this returns or throws.
    await discard(held);
  }
}

function withIgnoredRemoved(result: TestRunResult, removed: string[]): TestRunResult {
  return removed.length > 0 ? { ...result, ignoredRemoved: removed.slice(0, IGNORED_NAMED) } : result;
}

/** The caller's held run while it still waits; else a new one. */
async function heldRunFor(input: RunTestsInput, prepared: HeldTestRun | undefined): Promise<HeldTestRun> {
  if (prepared && !prepared.endedUndecided()) return prepared;
  // One that ended on its own (its program was missing when it started, say) uses the new run's folders: its clean-up
  // is over first.
  await prepared?.result.catch(() => undefined);
  return startHeldRun(input);
}

/** Closes the gate of a held run not decided yet (its group is killed unstarted) and waits for its end. */
async function discard(held: HeldTestRun | undefined): Promise<void> {
  held?.decide(false);
  await held?.result.catch(() => undefined);
}

/** Throws TestsHeld when `mayStart` says no: no result of the node (not even a refusal) is returned then. */
async function unlessHeld(mayStart: Promise<boolean> | undefined): Promise<void> {
  if (mayStart && !(await mayStart)) throw new TestsHeld();
}

function refusedResult(findings: Finding[], sandbox: SandboxPolicy): TestRunResult {
  return {
    outcome: 'error',
    exitCode: null,
    counts: { total: 0, passed: 0, failed: 0, errors: 0, skipped: 0 },
    cases: [],
    casesTruncated: false,
    reason: `tests not run: the review's path rules refused the change (${findings.map((finding) => finding.rule).join(', ')})`,
    refused: findings,
    sandbox: { mode: sandbox.mode, network: sandbox.network },
    stdoutExcerpt: '',
    stderrExcerpt: '',
    durationMs: 0,
  };
}

function checkInput(input: RunTestsInput): void {
  const invalid = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });
  if (input.command.length === 0 || !input.command[0]) {
    throw invalid(
      'InvalidTestCommand',
      `command must name a program, got ${JSON.stringify(input.command)}: pass argv such as ["python", "-m", "pytest"]`,
    );
  }
  if (!Number.isFinite(input.timeoutMs) || input.timeoutMs <= 0) {
    throw invalid(
      'InvalidTimeout',
      `timeoutMs must be a positive number of milliseconds, got ${input.timeoutMs}: pass e.g. 600000`,
    );
  }
  if (!existsSync(input.worktreePath)) {
    throw invalid(
      'InvalidWorktree',
      `worktreePath ${JSON.stringify(input.worktreePath)} does not exist: pass the worktreePath returned by createWorktree`,
    );
  }
  if (input.signal?.aborted) throw testRunCancelled(input.signal);
}
