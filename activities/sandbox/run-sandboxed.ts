// The one way taskloop runs repository code: in bubblewrap (default) or, by explicit opt-in, unsandboxed;
// in both modes with resource limits, output streamed to capped files and the process group recorded.
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { buildSandboxEnv, buildTestEnv } from '../process-env.js';
import { dieWithWorkerArgs } from '../process/die-with-worker.js';
import { bwrapArgs, prlimitArgs, SANDBOX_HOME } from './bwrap-args.js';
import { countInActivity } from '../activity-metrics.js';
import { detectRunCause, type RunCause } from './detect-cause.js';
import { viewEnvironment, type EnvironmentView, type SandboxEnvironment } from './environment-mount.js';
import { prepareEgress, type EgressRun } from './egress-network.js';
import { findProgram } from './find-program.js';
import { guardGitConfig } from './git-config-guard.js';
import { worktreeGitDirs } from './git-dirs.js';
import { readTail } from './output-files.js';
import { createMemoryCgroup } from './memory-cgroup.js';
import { createPidsCgroup, joinCgroupArgs } from './pids-cgroup.js';
import type { SandboxPolicy } from './policy.js';
import { killGroupIn, recordGroup } from './process-records.js';
import { runProcessTree, type ProcessTreeRun } from './process-tree.js';
import { findPythonPaths, type PythonPaths } from './python-paths.js';
import { watchWrites } from './write-watch.js';

export interface SandboxedRunInput {
  argv: string[];
  /** The worktree: the run's working folder and the only project folder it may write. */
  worktree: string;
  /** The task's own variables; the rest of the environment is built by the sandbox. */
  testEnv: Record<string, string>;
  policy: SandboxPolicy;
  timeoutMs: number;
  /** Host folder for stdout.log and stderr.log (never visible to the run). */
  logDir: string;
  /** Host folders the run may also write (e.g. where pytest puts its JUnit report). */
  writable?: string[];
  /** A built environment, shown at ENV_MOUNT with its bin first on PATH (bwrap mode only). */
  environment?: SandboxEnvironment;
  /** Host folders of tools the run calls (uv while set-up builds an environment): shown read-only, on PATH. */
  toolDirs?: string[];
  /** Where the running process group is recorded (the worker's work folder/processes). */
  processDir?: string;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
  heartbeatIntervalMs?: number;
}

export interface SandboxedRun extends ProcessTreeRun {
  stdoutFile: string;
  stderrFile: string;
  /** What stopped or refused the run, when the sandbox or a limit did. */
  cause?: RunCause;
  /** The limit on written bytes or new files the run went over (stopped then, or found over at its end). */
  overWritten?: string;
  /** Processes of the run the kernel killed at its memory limit (absent when none): such a run is never a pass. */
  oomKills?: number;
}

const MB = 1024 * 1024;
const TAIL_BYTES = 64 * 1024;

export async function runSandboxed(input: SandboxedRunInput): Promise<SandboxedRun> {
  const { policy } = input;
  const stdoutFile = path.join(input.logDir, 'stdout.log');
  const stderrFile = path.join(input.logDir, 'stderr.log');
  mkdirSync(input.logDir, { recursive: true });
  // The run's /tmp (bwrap): a folder beside its logs, which the run never sees, measured with the folders it may write,
  // so /tmp and the worktree share one written-bytes limit (a /tmp in memory beside it let 200 + 200 MB pass 300 MB).
  const tmp = policy.mode === 'bwrap' ? path.join(input.logDir, 'tmp') : undefined;
  if (tmp) mkdirSync(tmp, { recursive: true });
  const environment = input.environment;
  if (environment && policy.mode !== 'bwrap') throw new Error('an environment is shown only in the bwrap sandbox');
  const writableDirs = [
    input.worktree,
    ...(input.writable ?? []),
    ...(tmp ? [tmp] : []),
    ...(environment?.writable ? [environment.hostDir] : []),
  ];
  // Independent set-up side by side: the run starts sooner.
  const [python, writes, view] = await Promise.all([
    policy.mode === 'bwrap' ? findPythonPaths() : { readOnly: [], binDirs: [] },
    watchWrites(writableDirs, policy.limits),
    environment ? viewEnvironment(environment) : undefined,
    // A retried run must never overlap the group an earlier (perhaps crashed) run left in this worktree.
    input.processDir ? killGroupIn(input.processDir, input.worktree) : undefined,
  ]);
  const { env, lookupPath } = runEnvironment(input, python, view);
  const lookup = findProgram(input.argv[0] ?? '', lookupPath, input.worktree);
  if (!lookup.found) return { ...notStarted(lookup.error), stdoutFile, stderrFile };

  const overLimit = new AbortController();
  const egress = policy.network === 'egress' ? prepareEgress(input.logDir, () => overLimit.abort()) : undefined;
  const argv = sandboxArgv(input, { tmp, python, view, env, egress });
  // bwrap shows .git read-only; without it the run could rewrite the config taskloop's git commands read.
  const gitGuard = policy.mode === 'none' ? await guardGitConfig(input.worktree) : undefined;
  // Made last before the try (it never throws), so whatever fails before the run leaves no cgroup behind.
  const cgroup = await createPidsCgroup(policy.limits.processes);
  const memory = await createMemoryCgroup(policy.limits.memoryMb, cgroup);
  try {
    writes.start(() => overLimit.abort());
    const run = await runProcessTree({
      // The shell joins the pids cgroup, then (v1) the memory one, then starts the command: nothing it starts escapes.
      argv: joinCgroupArgs(cgroup, joinCgroupArgs(memory?.separate ? memory : undefined, argv)),
      cwd: input.worktree,
      env,
      timeoutMs: input.timeoutMs,
      stdoutFile,
      stderrFile,
      maxOutputBytes: policy.limits.outputMb * MB,
      heartbeat: input.heartbeat,
      signal: input.signal,
      stopSignal: overLimit.signal,
      heartbeatIntervalMs: input.heartbeatIntervalMs,
      onGroup: input.processDir ? (pgid) => recordGroup(input.processDir ?? '', input.worktree, pgid) : undefined,
      ...(egress ? { extraPipes: 2, onPipes: (pipes) => egress.onPipes(pipes) } : {}),
    });
    const noNetwork = await egress?.close();
    if (noNetwork && !run.cancelled && !run.timedOut)
      throw new Error(`set-up's network could not be made: ${noNetwork.message}`);
    const overWritten = await writes.stop();
    const ran = { ...run, stdoutFile, stderrFile };
    const restored = (await gitGuard?.restore()) ?? [];
    const oomKills = memory?.oomKills() ?? 0;
    const cause = await causeOfRun(input, ran, { overWritten, oomKills, restored });
    if (cause?.kind === 'SandboxDenied') countInActivity('taskloop_sandbox_denials');
    return {
      ...ran,
      ...(cause ? { cause } : {}),
      ...(overWritten ? { overWritten } : {}),
      ...(oomKills > 0 && { oomKills }),
    };
  } finally {
    await egress?.close();
    await writes.stop();
    await cgroup?.remove();
    await memory?.remove();
    // Whatever the run left there (links and FIFOs too) is removed, never followed.
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The run's variables and the PATH its program is looked up on (as host folders): in bwrap a clean environment whose
 * PATH puts the built environment's bin first, then the tools, then Python's; unsandboxed the worker's, scrubbed.
 */
function runEnvironment(
  input: SandboxedRunInput,
  python: PythonPaths,
  view: EnvironmentView | undefined,
): { env: Record<string, string>; lookupPath: string } {
  const toolDirs = input.toolDirs ?? [];
  const pathDirs = view ? [view.binDir, ...toolDirs, ...view.python.binDirs] : [...toolDirs, ...python.binDirs];
  const env =
    input.policy.mode === 'bwrap'
      ? buildSandboxEnv({ pathDirs, home: SANDBOX_HOME, extra: { ...view?.variables, ...input.testEnv } })
      : buildTestEnv({ base: process.env, extra: input.testEnv });
  const lookupPath = view ? view.hostPath(env.PATH ?? '') : (env.PATH ?? '');
  return { env, lookupPath };
}

/** The argv that starts the command: inside bwrap with what it may see, or unsandboxed under prlimit. */
function sandboxArgv(
  input: SandboxedRunInput,
  shown: { tmp?: string; python: PythonPaths; view?: EnvironmentView; env: Record<string, string>; egress?: EgressRun },
): string[] {
  const { policy } = input;
  if (policy.mode !== 'bwrap') return dieWithWorkerArgs([...prlimitArgs(policy.limits), ...input.argv]);
  const { view } = shown;
  return bwrapArgs({
    worktree: input.worktree,
    writable: input.writable ?? [],
    tmp: shown.tmp,
    readOnly: [
      ...shown.python.readOnly,
      ...(view?.python.readOnly ?? []),
      ...(input.toolDirs ?? []),
      ...worktreeGitDirs(input.worktree),
      ...policy.shownPaths,
    ],
    hidden: policy.hiddenPaths,
    mounts: view ? [view.mount] : [],
    network: policy.network === true,
    ...(shown.egress ? { egress: { resolvConf: shown.egress.resolvConf } } : {}),
    env: shown.env,
    limits: policy.limits,
    argv: input.argv,
  });
}

/** What stopped or refused the run, read from its output's end and the limits; else a git config it changed. */
async function causeOfRun(
  input: SandboxedRunInput,
  run: ProcessTreeRun & { stdoutFile: string; stderrFile: string },
  found: { overWritten?: string; oomKills: number; restored: string[] },
): Promise<RunCause | undefined> {
  const outputTail = `${await readTail(run.stdoutFile, TAIL_BYTES)}\n${await readTail(run.stderrFile, TAIL_BYTES)}`;
  const cause = detectRunCause({
    policy: input.policy,
    timedOut: run.timedOut,
    timeoutMs: input.timeoutMs,
    outputTooLarge: run.outputTooLarge,
    signal: run.signal,
    outputTail,
    overWritten: found.overWritten,
    oomKills: found.oomKills,
  });
  return cause ?? (found.restored.length > 0 ? gitConfigCause(found.restored) : undefined);
}

function gitConfigCause(restored: string[]): RunCause {
  return {
    kind: 'SandboxDenied',
    message: `sandbox: the run changed the repository's git config (${restored.join(', ')}); taskloop restored it`,
    details: { restored: restored.length },
  };
}

function notStarted(spawnError: 'ENOENT' | 'EACCES'): ProcessTreeRun {
  return {
    exitCode: null,
    timedOut: false,
    cancelled: false,
    spawnError,
    outputTooLarge: false,
    durationMs: 0,
    stdoutBytes: 0,
    stderrBytes: 0,
  };
}
