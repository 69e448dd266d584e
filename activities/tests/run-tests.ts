// The test node: runs the task's test command in the worktree and returns a TestRunResult (a failing run is a value).
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { classifyTestOutput } from '../../domain/learning/patterns/index.js';
import { STDERR_EXCERPT_CHARS, STDOUT_EXCERPT_CHARS, tailExcerpt } from '../../domain/evidence.js';
import type { TestCaseResult, TestRunResult } from '../../domain/records.js';
import { scrubText } from '../../domain/secrets.js';
import { causeOfTestRun } from '../../domain/test-failure-cause.js';
import { writeArtifact } from '../artifacts.js';
import { toCaseId } from './case-ids.js';
import { interpretRun } from './interpret-run.js';
import { parseJunitXml } from './junit.js';
import { isPytestCommand, withPytestOptions } from './pytest-command.js';
import { runProcessTree } from './run-process-tree.js';
import { boundCases, countCases } from './summarize-cases.js';

const MAX_PATTERNS = 5;

export interface RunTestsInput {
  worktreePath: string;
  /** argv, run without a shell, e.g. ['python', '-m', 'pytest']. */
  command: string[];
  /** The whole environment of the test process (build it with buildTestEnv); process.env is not merged. */
  env: Record<string, string>;
  timeoutMs: number;
  secretValues: string[];
  artifactDir: string;
  hostId: string;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
  /** Most cases kept in the result (failing ones first); default 500. */
  maxCases?: number;
  /** How often to heartbeat while the command runs; default 5000 ms. */
  heartbeatIntervalMs?: number;
}

/**
 * Runs the tests; timeout and cancellation kill the whole process tree. Logs (scrubbed) become artifacts
 * test-stdout.log, test-stderr.log and junit.xml. Throws only for bad input (non-retryable) or on cancellation.
 */
export async function runTests(input: RunTestsInput): Promise<TestRunResult> {
  checkInput(input);
  const artifactDir = path.resolve(input.artifactDir);
  const junitPath = path.join(artifactDir, 'junit.xml');
  const pytest = isPytestCommand(input.command);
  await mkdir(artifactDir, { recursive: true });
  await rm(junitPath, { force: true }); // a retried run must not read the previous run's report

  const run = await runProcessTree({
    argv: pytest ? withPytestOptions(input.command, junitPath) : input.command,
    cwd: input.worktreePath,
    env: input.env,
    timeoutMs: input.timeoutMs,
    heartbeat: input.heartbeat,
    signal: input.signal,
    heartbeatIntervalMs: input.heartbeatIntervalMs,
  });
  if (run.cancelled) throw cancellation(input.signal);

  const scrub = (text: string) => scrubText(text, input.secretValues);
  const junitXml = pytest ? await readOptional(junitPath) : undefined;
  const allCases = junitXml === undefined ? [] : readCases(junitXml, input.worktreePath);
  if (junitXml !== undefined) {
    await writeArtifact({ dir: artifactDir, name: 'junit.xml', content: scrub(junitXml), hostId: input.hostId });
  }
  const counts = countCases(allCases);
  const { outcome, reason } = interpretRun({
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
  });

  const stdout = scrub(run.stdout);
  const stderr = scrub(run.stderr);
  const log = await writeArtifact({ dir: artifactDir, name: 'test-stdout.log', content: stdout, hostId: input.hostId });
  await writeArtifact({ dir: artifactDir, name: 'test-stderr.log', content: stderr, hostId: input.hostId });
  const facts = { pytest, argv0: input.command[0] ?? '', timeoutMs: input.timeoutMs, exitCode: run.exitCode, timedOut: run.timedOut, spawnError: run.spawnError, outputTooLarge: run.outputTooLarge, failingCases: counts.failed + counts.errors };
  const cause = outcome === 'passed' ? undefined : causeOfTestRun({ ...facts, output: `${stdout}\n${stderr}` });
  const patterns = outcome === 'passed' ? undefined : classifyTestOutput({ output: `${stdout}\n${stderr}`, counts }).slice(0, MAX_PATTERNS);
  return {
    outcome,
    exitCode: run.exitCode,
    counts,
    ...(patterns === undefined ? {} : { patterns }),
    ...boundCases(allCases, input.maxCases ?? 500),
    ...(reason === undefined ? {} : { reason: scrub(reason) }),
    ...(cause === undefined ? {} : { cause }),
    stdoutExcerpt: tailExcerpt(stdout, STDOUT_EXCERPT_CHARS),
    stderrExcerpt: tailExcerpt(stderr, STDERR_EXCERPT_CHARS),
    durationMs: run.durationMs,
    log,
  };
}

function readCases(xml: string, worktreePath: string): TestCaseResult[] {
  const exists = (relative: string) => existsSync(path.join(worktreePath, relative));
  return parseJunitXml(xml).map((entry) => ({ id: toCaseId(entry, exists), outcome: entry.outcome }));
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

function cancellation(signal: AbortSignal | undefined): Error {
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
    throw invalid('InvalidTimeout', `timeoutMs must be a positive number of milliseconds, got ${input.timeoutMs}: pass e.g. 600000`);
  }
  if (!existsSync(input.worktreePath)) {
    throw invalid(
      'InvalidWorktree',
      `worktreePath ${JSON.stringify(input.worktreePath)} does not exist: pass the worktreePath returned by createWorktree`,
    );
  }
  if (input.signal?.aborted) throw cancellation(input.signal);
}
