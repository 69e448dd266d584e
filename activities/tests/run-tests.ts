// The test node: runs the task's test command in the worktree, through the sandbox, and returns a
// TestRunResult (a failing run is a value). The review's path rules run first: a refused change never runs.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { STDERR_EXCERPT_CHARS, STDOUT_EXCERPT_CHARS, tailExcerpt } from '../../domain/evidence.js';
import type { FailureCause } from '../../domain/failure-causes.js';
import type { Finding, ReviewResult, TestCaseResult, TestRunResult } from '../../domain/records.js';
import { scrubText } from '../../domain/secrets.js';
import { writeArtifact } from '../artifacts.js';
import { readText } from '../small-files.js';
import { readTail } from '../sandbox/output-files.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import { runSandboxed } from '../sandbox/run-sandboxed.js';
import { scrubFileToArtifact } from '../sandbox/scrub-file.js';
import { toCaseId } from './case-ids.js';
import { interpretRun } from './interpret-run.js';
import { parseJunitXml } from './junit.js';
import { pathRuleFindings, refusedByPathRules, type PathPolicy } from './path-policy.js';
import { reviewChange, stageChange, type RuleReviewOptions } from './review-before-tests.js';
import { readPythonSources } from '../review/python-syntax.js';
import { repositoryModules } from './repo-modules.js';
import { isPytestCommand, withPytestOptions } from './pytest-command.js';
import { createGate } from '../sandbox/gate.js';
import { boundCases, countCases } from './summarize-cases.js';

// Pattern detection reads the end of the logs only: a huge log is never loaded whole.
const PATTERN_TAIL_BYTES = 256 * 1024;

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
  /** How often to heartbeat while the command runs; default 5000 ms. */
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
 */
export async function runTests(input: RunTestsInput): Promise<TestRunResult & { review?: ReviewResult }> {
  checkInput(input);
  const { pathPolicy, worktreePath } = input;
  if (!pathPolicy || !input.review) {
    const refused = pathPolicy ? await refusedByPathRules(worktreePath, pathPolicy) : [];
    await unlessHeld(input.mayStart);
    return refused.length > 0 ? refusedResult(refused, input.sandbox) : runCommand(input);
  }
  // The change is staged and its paths listed (its git processes asked for first: they are the way to the tests) while
  // the sandbox starts, its command held at a gate: a refused change never runs (the gate stays shut and the held run
  // is killed), an accepted one starts at once.
  const staging = stageChange(worktreePath, pathPolicy);
  const gate = createGate();
  const held = runCommand(input, gate.decided);
  // Awaited below; until then a failure must not count as an unhandled rejection (it ends the worker).
  staging.catch(() => undefined);
  held.catch(() => undefined);
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
    gate.decide(true);
    const { review: options } = input;
    const [result, review] = await Promise.all([
      held,
      change.diff().then((diff) => {
        // Only the staged change is reviewed (the listing may name a path more, see stageAndListChanges).
        const staged = sources.filter((source) => diff.changedFiles.includes(source.name));
        return reviewChange(worktreePath, pathPolicy, options, diff, staged);
      }),
    ]);
    return { ...result, review };
  } finally {
    gate.decide(false);
    // No process outlives the activity: a held run is over (killed unstarted) before this returns or throws.
    await held.catch(() => undefined);
  }
}

/** Throws TestsHeld when `mayStart` says no: no result of the node (not even a refusal) is returned then. */
async function unlessHeld(mayStart: Promise<boolean> | undefined): Promise<void> {
  if (mayStart && !(await mayStart)) throw new TestsHeld();
}

async function runCommand(input: RunTestsInput, gate?: Promise<boolean>): Promise<TestRunResult> {
  const artifactDir = path.resolve(input.artifactDir);
  const outDir = path.join(artifactDir, 'test-out'); // the one artifact folder the run may write (its JUnit report)
  const junitPath = path.join(outDir, 'junit.xml');
  const pytest = isPytestCommand(input.command);
  // A retried run must not read the previous run's report. (Small files and folders: synchronous, see
  // activities/small-files.ts.)
  mkdirSync(outDir, { recursive: true });
  rmSync(junitPath, { force: true });

  const run = await runSandboxed({
    argv: pytest ? withPytestOptions(input.command, junitPath) : input.command,
    worktree: path.resolve(input.worktreePath),
    testEnv: input.testEnv,
    policy: input.sandbox,
    timeoutMs: input.timeoutMs,
    logDir: path.join(artifactDir, 'raw'),
    writable: [outDir],
    processDir: input.processDir,
    heartbeat: input.heartbeat,
    signal: input.signal,
    heartbeatIntervalMs: input.heartbeatIntervalMs,
    gate,
  });
  if (run.cancelled) throw testRunCancelled(input.signal);
  if (run.discarded) {
    // It never ran: nothing of it is kept.
    await rm(outDir, { recursive: true, force: true });
    await rm(path.dirname(run.stdoutFile), { recursive: true, force: true });
    throw new Error('the held test run was discarded');
  }

  const scrub = (text: string) => scrubText(text, input.secretValues);
  const junitXml = pytest ? await readOptional(junitPath) : undefined;
  // pytest's own report is unscrubbed: only the scrubbed copy below stays among the artifacts. Folders go through
  // fs/promises, beside the work that follows: a synchronous rmdir waits on the file system's journal under load (2 to
  // 3 ms of the worker's event loop per run in a profile of 20 concurrent tasks).
  const outRemoved = rm(outDir, { recursive: true, force: true });
  const allCases = junitXml === undefined ? [] : readCases(junitXml, input.worktreePath);
  const counts = countCases(allCases);
  // Logs are streamed to files by the sandbox; only their tails are read back, so a huge log is never loaded whole.
  const artifact = (source: string, name: string) =>
    scrubFileToArtifact({ source, dir: artifactDir, name, secretValues: input.secretValues, hostId: input.hostId });
  // Separate files, each written atomically: side by side.
  const [log, errors, ownModules] = await Promise.all([
    artifact(run.stdoutFile, 'test-stdout.log'),
    artifact(run.stderrFile, 'test-stderr.log'),
    pytest ? repositoryModules(input.worktreePath) : undefined,
    junitXml === undefined
      ? undefined
      : writeArtifact({
          ...{ dir: artifactDir, name: 'junit.xml', content: scrub(junitXml), hostId: input.hostId },
          secretValues: input.secretValues,
        }),
    outRemoved,
  ]);
  const rawRemoved = rm(path.dirname(run.stdoutFile), { recursive: true, force: true });
  // Awaited before the result is returned; until then a failure must not count as an unhandled rejection.
  rawRemoved.catch(() => undefined);
  const [stdoutTail, stderrTail] = (
    await Promise.all([readTail(log.path, PATTERN_TAIL_BYTES), readTail(errors.path, PATTERN_TAIL_BYTES)])
  ).map(scrub) as [string, string];
  const interpreted = interpretRun({
    pytest,
    argv0: input.command[0] ?? '',
    timeoutMs: input.timeoutMs,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    spawnError: run.spawnError,
    outputTooLarge: run.outputTooLarge,
    failingCases: counts.failed + counts.errors,
    junitFound: junitXml !== undefined,
    stdout: stdoutTail,
    stderr: stderrTail,
    counts,
    ownModules,
  });
  const { outcome, patterns } = interpreted;
  // A sandbox refusal or a limit is the cause even when pytest only reports the test as failed.
  const sandboxCause = run.cause && outcome !== 'passed' ? (run.cause as FailureCause) : undefined;
  const cause = sandboxCause ?? interpreted.cause;
  const reason = sandboxCause ? sandboxCause.message : interpreted.reason;
  await rawRemoved;
  return {
    outcome,
    exitCode: run.exitCode,
    counts,
    ...(patterns === undefined ? {} : { patterns }),
    ...boundCases(allCases, input.maxCases ?? 500),
    ...(reason === undefined ? {} : { reason: scrub(reason) }),
    ...(cause === undefined ? {} : { cause: { ...cause, message: scrub(cause.message) } }),
    sandbox: { mode: input.sandbox.mode, network: input.sandbox.network },
    stdoutExcerpt: tailExcerpt(stdoutTail, STDOUT_EXCERPT_CHARS),
    stderrExcerpt: tailExcerpt(stderrTail, STDERR_EXCERPT_CHARS),
    durationMs: run.durationMs,
    log,
  };
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

function readCases(xml: string, worktreePath: string): TestCaseResult[] {
  const exists = (relative: string) => existsSync(path.join(worktreePath, relative));
  return parseJunitXml(xml).map((entry) => ({ id: toCaseId(entry, exists), outcome: entry.outcome }));
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readText(file);
  } catch {
    return undefined;
  }
}

/** The error a cancelled test activity ends with: the cancellation's own reason when it has one. */
export function testRunCancelled(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new CancelledFailure('test run cancelled: the process tree was killed');
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
