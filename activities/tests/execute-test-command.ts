// One run of the test command in its sandbox and what it left: the scrubbed logs and JUnit report as artifacts, the
// cases and counts, and what the run says went wrong.
import { mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CancelledFailure } from '@temporalio/common';
import { STDERR_EXCERPT_CHARS, STDOUT_EXCERPT_CHARS, tailExcerpt } from '../../domain/evidence.js';
import type { FailureCause } from '../../domain/failure-causes.js';
import type { ArtifactRef, TestRunResult } from '../../domain/records.js';
import { scrubText } from '../../domain/secrets.js';
import { decideTestRun, type TestRunDecision } from '../../domain/test-run-outcome.js';
import { writeArtifact } from '../artifacts.js';
import { readTail } from '../sandbox/output-files.js';
import { runSandboxed, type SandboxedRun } from '../sandbox/run-sandboxed.js';
import { scrubFileToArtifact } from '../sandbox/scrub-file.js';
import { isPytestCommand, withPytestOptions } from './pytest-command.js';
import { importPathFor } from './import-path.js';
import { readCases, readReport } from './read-junit-report.js';
import { repositoryModules } from './repo-modules.js';
import type { RunTestsInput } from './run-tests-input.js';
import { boundCases, countCases } from './summarize-cases.js';

// Pattern detection reads the end of the logs only: a huge log is never loaded whole.
const PATTERN_TAIL_BYTES = 256 * 1024;

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
  const run = await runTestsSandboxed(input, { pytest, junitPath, outDir, artifactDir });
  if (run.cancelled) throw testRunCancelled(input.signal);

  const scrub = (text: string) => scrubText(text, input.secretValues);
  const report = pytest ? await readReport(junitPath) : {};
  // pytest's own report is unscrubbed: only the scrubbed copy stays among the artifacts. Folders go through
  // fs/promises, beside the work that follows: a synchronous rmdir waits on the file system's journal under load (2 to
  // 3 ms of the worker's event loop per run in a profile of 20 concurrent tasks).
  const outRemoved = rm(outDir, { recursive: true, force: true });
  const allCases = report.xml === undefined ? [] : readCases(report.xml, input.worktreePath);
  const counts = countCases(allCases);
  const { log, errors, ownModules } = await keepArtifacts(input, run, { artifactDir, pytest, report, outRemoved });
  const rawRemoved = rm(path.dirname(run.stdoutFile), { recursive: true, force: true });
  // Awaited before the result is returned; until then a failure must not count as an unhandled rejection.
  rawRemoved.catch(() => undefined);
  const [stdoutTail, stderrTail] = (
    await Promise.all([readTail(log.path, PATTERN_TAIL_BYTES), readTail(errors.path, PATTERN_TAIL_BYTES)])
  ).map(scrub) as [string, string];
  const { outcome, patterns, cause, reason } = outcomeOf(input, run, report, {
    pytest,
    cases: allCases.length,
    counts,
    stdout: stdoutTail,
    stderr: stderrTail,
    ownModules,
  });
  await rawRemoved;
  const { environment } = input;
  return {
    outcome,
    exitCode: run.exitCode,
    counts,
    ...(patterns === undefined ? {} : { patterns }),
    ...boundCases(allCases, input.maxCases ?? 500),
    ...(reason === undefined ? {} : { reason: scrub(reason) }),
    ...(cause === undefined ? {} : { cause: { ...cause, message: scrub(cause.message) } }),
    sandbox: { mode: input.sandbox.mode, network: input.sandbox.network === true },
    ...(environment ? { environment: { name: environment.name, key: environment.key } } : {}),
    stdoutExcerpt: tailExcerpt(stdoutTail, STDOUT_EXCERPT_CHARS),
    stderrExcerpt: tailExcerpt(stderrTail, STDERR_EXCERPT_CHARS),
    durationMs: run.durationMs,
    log,
  };
}

/** The test command in the sandbox: pytest writes its JUnit report to the one artifact folder the run may write. */
function runTestsSandboxed(
  input: RunTestsInput,
  paths: { pytest: boolean; junitPath: string; outDir: string; artifactDir: string },
): Promise<SandboxedRun> {
  const worktree = path.resolve(input.worktreePath);
  const { environment } = input;
  return runSandboxed({
    argv: paths.pytest ? withPytestOptions(input.command, paths.junitPath) : input.command,
    worktree,
    testEnv: environment ? { ...importPathFor(worktree), ...input.testEnv } : input.testEnv,
    ...(environment ? { environment: { hostDir: environment.hostDir, interpreter: environment.interpreter } } : {}),
    policy: input.sandbox,
    timeoutMs: input.timeoutMs,
    logDir: path.join(paths.artifactDir, 'raw'),
    writable: [paths.outDir],
    processDir: input.processDir,
    heartbeat: input.heartbeat,
    signal: input.signal,
    heartbeatIntervalMs: input.heartbeatIntervalMs,
  });
}

/**
 * The logs and the report as scrubbed artifacts (each written atomically, side by side; logs are streamed to files
 * by the sandbox and copied, never loaded whole), and for pytest the repository's own module names.
 */
async function keepArtifacts(
  input: RunTestsInput,
  run: SandboxedRun,
  found: { artifactDir: string; pytest: boolean; report: { xml?: string }; outRemoved: Promise<void> },
): Promise<{ log: ArtifactRef; errors: ArtifactRef; ownModules: string[] | undefined }> {
  const { artifactDir, report } = found;
  const artifact = (source: string, name: string) =>
    scrubFileToArtifact({ source, dir: artifactDir, name, secretValues: input.secretValues, hostId: input.hostId });
  const [log, errors, ownModules] = await Promise.all([
    artifact(run.stdoutFile, 'test-stdout.log'),
    artifact(run.stderrFile, 'test-stderr.log'),
    found.pytest ? repositoryModules(input.worktreePath) : undefined,
    report.xml === undefined
      ? undefined
      : writeArtifact({
          ...{
            dir: artifactDir,
            name: 'junit.xml',
            content: scrubText(report.xml, input.secretValues),
            hostId: input.hostId,
          },
          secretValues: input.secretValues,
        }),
    found.outRemoved,
  ]);
  return { log, errors, ownModules };
}

/** The run's outcome, cause and reason: what the run says (domain/test-run-outcome.ts) unless its report or a limit says otherwise. */
function outcomeOf(
  input: RunTestsInput,
  run: SandboxedRun,
  report: { xml?: string; unsafe?: FailureCause },
  read: {
    pytest: boolean;
    cases: number;
    counts: TestRunResult['counts'];
    stdout: string;
    stderr: string;
    ownModules?: string[];
  },
): TestRunDecision {
  const { environment } = input;
  const interpreted = decideTestRun({
    pytest: read.pytest,
    program: input.command[0] ?? '',
    timeoutMs: input.timeoutMs,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    commandNotFound: run.spawnError === 'ENOENT',
    notExecutable: run.spawnError === 'EACCES',
    outputTooLarge: run.outputTooLarge,
    junitFound: report.xml !== undefined,
    testCases: read.cases,
    stdout: read.stdout,
    stderr: read.stderr,
    counts: read.counts,
    ownModules: read.ownModules,
    ...(environment ? { environment: environment.name } : {}),
  });
  // A report that is not a plain file is the run's cause whatever pytest's exit said (a link at its path while pytest
  // exits 0 would otherwise pass); a sandbox refusal or a limit is the cause even when pytest only reports a failure.
  // So is a run over its written bytes or files, found at its end as well as on the way (it finished between two looks),
  // and a run the kernel killed processes of at its memory limit: pytest may exit 0 when the killed one was a child
  // whose status no test checked (a pass with no cause, before issue 65).
  const overLimit = run.overWritten !== undefined || (run.oomKills ?? 0) > 0;
  const outcome = report.unsafe || overLimit ? 'error' : interpreted.outcome;
  const sandboxCause = run.cause && outcome !== 'passed' ? (run.cause as FailureCause) : undefined;
  return {
    outcome,
    patterns: interpreted.patterns,
    cause: report.unsafe ?? sandboxCause ?? interpreted.cause,
    reason: report.unsafe?.message ?? sandboxCause?.message ?? interpreted.reason,
  };
}

/** The error a cancelled test activity ends with: the cancellation's own reason when it has one. */
export function testRunCancelled(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new CancelledFailure('test run cancelled: the process tree was killed');
}
