// One run of the test command in its sandbox and what it left: the scrubbed logs and JUnit report as artifacts, the
// cases and counts, and what the run says went wrong.
import { mkdirSync, rmSync } from 'node:fs';
import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { CancelledFailure } from '@temporalio/common';
import { STDERR_EXCERPT_CHARS, STDOUT_EXCERPT_CHARS, tailExcerpt } from '../../domain/evidence.js';
import type { FailureCause } from '../../domain/failure-causes.js';
import type { TestCaseResult, TestRunResult } from '../../domain/records.js';
import { scrubText } from '../../domain/secrets.js';
import { decideTestRun } from '../../domain/test-run-outcome.js';
import { writeArtifact } from '../artifacts.js';
import { readTail } from '../sandbox/output-files.js';
import { runSandboxed } from '../sandbox/run-sandboxed.js';
import { scrubFileToArtifact } from '../sandbox/scrub-file.js';
import { confineToRoot, readUntrustedFile } from '../untrusted-files.js';
import { toCaseId } from './case-ids.js';
import { parseJunitXml } from './junit.js';
import { isPytestCommand, withPytestOptions } from './pytest-command.js';
import { importPathFor } from './import-path.js';
import { repositoryModules } from './repo-modules.js';
import type { RunTestsInput } from './run-tests.js';
import { boundCases, countCases } from './summarize-cases.js';

// Pattern detection reads the end of the logs only: a huge log is never loaded whole.
const PATTERN_TAIL_BYTES = 256 * 1024;
// A JUnit report of 20,000 cases is about 4 MB; a larger one is refused rather than parsed on the worker.
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** Runs the command in its sandbox and reads what it left. */
export async function executeTestCommand(input: RunTestsInput): Promise<TestRunResult> {
  const artifactDir = path.resolve(input.artifactDir);
  const outDir = path.join(artifactDir, 'test-out'); // the one artifact folder the run may write (its JUnit report)
  const junitPath = path.join(outDir, 'junit.xml');
  const pytest = isPytestCommand(input.command);
  // A retried run must not read the previous run's report. (Small files and folders: synchronous, see
  // activities/small-files.ts.)
  mkdirSync(outDir, { recursive: true });
  rmSync(junitPath, { force: true });

  const worktree = path.resolve(input.worktreePath);
  const { environment } = input;
  const run = await runSandboxed({
    argv: pytest ? withPytestOptions(input.command, junitPath) : input.command,
    worktree,
    testEnv: environment ? { ...importPathFor(worktree), ...input.testEnv } : input.testEnv,
    ...(environment ? { environment: { hostDir: environment.hostDir, interpreter: environment.interpreter } } : {}),
    policy: input.sandbox,
    timeoutMs: input.timeoutMs,
    logDir: path.join(artifactDir, 'raw'),
    writable: [outDir],
    processDir: input.processDir,
    heartbeat: input.heartbeat,
    signal: input.signal,
    heartbeatIntervalMs: input.heartbeatIntervalMs,
  });
  if (run.cancelled) throw testRunCancelled(input.signal);

  const scrub = (text: string) => scrubText(text, input.secretValues);
  const report = pytest ? await readReport(junitPath) : {};
  const junitXml = report.xml;
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
  const interpreted = decideTestRun({
    pytest,
    program: input.command[0] ?? '',
    timeoutMs: input.timeoutMs,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    commandNotFound: run.spawnError === 'ENOENT',
    notExecutable: run.spawnError === 'EACCES',
    outputTooLarge: run.outputTooLarge,
    junitFound: junitXml !== undefined,
    testCases: allCases.length,
    stdout: stdoutTail,
    stderr: stderrTail,
    counts,
    ownModules,
    ...(environment ? { environment: environment.name } : {}),
  });
  const { patterns } = interpreted;
  // A report that is not a plain file is the run's cause whatever pytest's exit said (a link at its path while pytest
  // exits 0 would otherwise pass); a sandbox refusal or a limit is the cause even when pytest only reports a failure.
  // So is a run over its written bytes or files, found at its end as well as on the way (it finished between two looks).
  const outcome = report.unsafe || run.overWritten !== undefined ? 'error' : interpreted.outcome;
  const sandboxCause = run.cause && outcome !== 'passed' ? (run.cause as FailureCause) : undefined;
  const cause = report.unsafe ?? sandboxCause ?? interpreted.cause;
  const reason = report.unsafe?.message ?? sandboxCause?.message ?? interpreted.reason;
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
    ...(environment ? { environment: { name: environment.name, key: environment.key } } : {}),
    stdoutExcerpt: tailExcerpt(stdoutTail, STDOUT_EXCERPT_CHARS),
    stderrExcerpt: tailExcerpt(stderrTail, STDERR_EXCERPT_CHARS),
    durationMs: run.durationMs,
    log,
  };
}

function readCases(xml: string, worktreePath: string): TestCaseResult[] {
  // The report's file names come from repository code: only a file inside the worktree counts as existing.
  const exists = (relative: string) => confineToRoot(worktreePath, relative) !== undefined;
  return parseJunitXml(xml).map((entry) => ({ id: toCaseId(entry, exists), outcome: entry.outcome }));
}

/**
 * The JUnit report the run left in its writable folder. Code the tests ran may have put a link there (to a file the
 * sandbox hides), a FIFO (a plain read would block the worker) or a huge file: none of those is read, and the run
 * ends with an UnsafeTestOutput cause naming what was found. No report at all is only a missing report here (the
 * outcome's decision says a pytest exit 0 without one is no pass).
 */
async function readReport(file: string): Promise<{ xml?: string; unsafe?: FailureCause }> {
  // The last component is opened without following a link; the folder above it, the one the run may write, could
  // itself have been swapped for a link to a report elsewhere (unsandboxed, where nothing binds it in place).
  const folder = await lstat(path.dirname(file)).catch(() => undefined);
  if (folder !== undefined && !folder.isDirectory()) {
    const what = folder.isSymbolicLink() ? 'a symbolic link' : 'not a folder';
    return { unsafe: unsafeReport(`its report folder ${path.dirname(file)} is ${what}`, 'link') };
  }
  const read = await readUntrustedFile(file, MAX_REPORT_BYTES);
  if (read.ok) return { xml: read.text };
  if (read.problem === 'missing') return {};
  return { unsafe: unsafeReport(read.detail, read.problem) };
}

function unsafeReport(detail: string, problem: string): FailureCause {
  return {
    kind: 'UnsafeTestOutput',
    message: `the test run left something other than a plain JUnit report at its report path: ${detail}; it was not read (code the tests ran must not touch pytest's report)`,
    details: { problem },
  };
}

/** The error a cancelled test activity ends with: the cancellation's own reason when it has one. */
export function testRunCancelled(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new CancelledFailure('test run cancelled: the process tree was killed');
}
