// What a sandboxed run may do: the mode, network, resource limits and the host paths hidden from it.
import os from 'node:os';
import path from 'node:path';
import { limitRanges } from '../../domain/sandbox-limits.js';
import { stateDir } from '../../platform/paths.js';

export type SandboxMode = 'bwrap' | 'none';
export const sandboxModes: readonly SandboxMode[] = ['bwrap', 'none'];

export interface SandboxLimits {
  /** Address space of each process, and the whole run's memory where a memory cgroup can be made, in MB. */
  memoryMb: number;
  /** Processes and threads the run may have at once. */
  processes: number;
  /** Largest file the run may write, in MB. */
  fileSizeMb: number;
  /** CPU time of each process, in seconds (beside the wall timeout). */
  cpuSeconds: number;
  /** Output kept per stream, in MB; beyond it the run is stopped (OutputTooLarge). */
  outputMb: number;
  /** Bytes the run may add to the worktree and its /tmp together, in MB; beyond it the run is stopped (ResourceLimit). */
  writtenMb: number;
  /** Files and folders the run may add to the worktree; beyond it the run is stopped (ResourceLimit). */
  files: number;
}

export const defaultLimits: SandboxLimits = {
  memoryMb: 4096,
  processes: 256,
  fileSizeMb: 1024,
  cpuSeconds: 3600,
  outputMb: 64,
  writtenMb: 4096,
  files: 100_000,
};

export interface SandboxPolicy {
  mode: SandboxMode;
  /**
   * bwrap mode: keep the host's network (task field `network: true`); `egress`: a network of its own whose only way
   * out is to the outside, never the host (environment set-up; activities/sandbox/egress-network.ts); otherwise only
   * a private loopback.
   */
  network: boolean | 'egress';
  limits: SandboxLimits;
  /** Host folders replaced by empty ones inside the sandbox (home, work folder...); the worktree is bound back. */
  hiddenPaths: string[];
  /** Host folders shown read-only besides the system's (TASKLOOP_SANDBOX_SHOW): a tool under /opt, say. */
  shownPaths: string[];
}

/** The worker's sandbox settings: its mode and default limits, and what it hides. */
export interface WorkerSandbox {
  mode: SandboxMode;
  limits: SandboxLimits;
  hiddenPaths: string[];
  /** Host folders shown read-only besides the system's (TASKLOOP_SANDBOX_SHOW): a tool under /opt, say. */
  shownPaths: string[];
}

/** Per-task overrides (task fields `sandbox`, `network`, `limits`). */
export interface TaskSandboxFields {
  sandbox?: SandboxMode;
  network?: boolean;
  limits?: Partial<SandboxLimits>;
}

const envLimitNames: Record<keyof SandboxLimits, string> = {
  memoryMb: 'TASKLOOP_SANDBOX_MEMORY_MB',
  processes: 'TASKLOOP_SANDBOX_PROCESSES',
  fileSizeMb: 'TASKLOOP_SANDBOX_FILE_SIZE_MB',
  cpuSeconds: 'TASKLOOP_SANDBOX_CPU_SECONDS',
  outputMb: 'TASKLOOP_SANDBOX_OUTPUT_MB',
  writtenMb: 'TASKLOOP_SANDBOX_WRITTEN_MB',
  files: 'TASKLOOP_SANDBOX_FILES',
};

export class SandboxConfigError extends Error {
  override name = 'SandboxConfigError';
}

/** Reads the mode from the worker flag, else TASKLOOP_SANDBOX, else bwrap; a wrong value names the choices. */
export function resolveSandboxMode(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): SandboxMode {
  const [source, value] = flag !== undefined ? ['--sandbox', flag] : ['TASKLOOP_SANDBOX', env.TASKLOOP_SANDBOX];
  if (value === undefined || value === '') return 'bwrap';
  if ((sandboxModes as readonly string[]).includes(value)) return value as SandboxMode;
  throw new SandboxConfigError(
    `${source}=${JSON.stringify(value)} is not a sandbox mode: use bwrap (the default) or none`,
  );
}

/**
 * The worker's default limits, each overridable by its TASKLOOP_SANDBOX_* variable: a whole number within the range a
 * task's own `limits` have (domain/sandbox-limits.ts).
 */
export function resolveWorkerLimits(env: NodeJS.ProcessEnv = process.env): SandboxLimits {
  const limits = { ...defaultLimits };
  for (const key of Object.keys(envLimitNames) as (keyof SandboxLimits)[]) {
    const raw = env[envLimitNames[key]];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    const { min, max, unit } = limitRanges[key];
    if (!Number.isInteger(value) || value <= 0) {
      throw new SandboxConfigError(
        `${envLimitNames[key]}=${JSON.stringify(raw)} must be a positive whole number (default ${defaultLimits[key]})`,
      );
    }
    if (value < min || value > max) {
      throw new SandboxConfigError(
        `${envLimitNames[key]}=${JSON.stringify(raw)} is out of range: set a whole number of ${unit} from ${min} to ${max} (default ${defaultLimits[key]})`,
      );
    }
    limits[key] = value;
  }
  return limits;
}

/**
 * Home, work folder, other users' homes, the worker's folder and taskloop's state folder: never shown to repository
 * code. The sandbox's root holds only the system's folders (activities/sandbox/bwrap-args.ts), so these matter where
 * one lies inside a shown folder; they are listed whole all the same, as the configuration the worker reports.
 */
export function defaultHiddenPaths(workDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const candidates = [
    os.homedir(),
    env.HOME,
    workDir,
    '/home',
    '/root',
    '/var/tmp',
    '/run/user',
    process.cwd(),
    stateDir(env),
  ];
  const extra = (env.TASKLOOP_SANDBOX_HIDE ?? '').split(':');
  return [...new Set([...candidates, ...extra].filter((p): p is string => !!p).map((p) => path.resolve(p)))];
}

/** TASKLOOP_SANDBOX_SHOW: absolute host folders shown read-only to runs; a relative one is a configuration error. */
export function shownPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = (env.TASKLOOP_SANDBOX_SHOW ?? '').split(':').filter((dir) => dir !== '');
  const relative = dirs.find((dir) => !path.isAbsolute(dir));
  if (relative !== undefined) {
    throw new SandboxConfigError(
      `TASKLOOP_SANDBOX_SHOW holds ${JSON.stringify(relative)}: list absolute host folders, separated by ':'`,
    );
  }
  return [...new Set(dirs.map((dir) => path.resolve(dir)))];
}

export function resolveWorkerSandbox(input: {
  workDir: string;
  flag?: string;
  env?: NodeJS.ProcessEnv;
}): WorkerSandbox {
  const env = input.env ?? process.env;
  return {
    mode: resolveSandboxMode(input.flag, env),
    limits: resolveWorkerLimits(env),
    hiddenPaths: defaultHiddenPaths(input.workDir, env),
    shownPaths: shownPaths(env),
  };
}

/** The policy for one run: the task's fields over the worker's defaults. */
export function sandboxPolicyFor(worker: WorkerSandbox, task: TaskSandboxFields = {}): SandboxPolicy {
  return {
    mode: task.sandbox ?? worker.mode,
    network: task.network ?? false,
    limits: { ...worker.limits, ...task.limits },
    hiddenPaths: worker.hiddenPaths,
    shownPaths: worker.shownPaths,
  };
}
