// Runs one command in its own process group, so a timeout or cancellation can kill everything it started.
import { execa } from 'execa';

export interface ProcessTreeRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** The signal that ended the command, when one did. */
  signal?: string;
  timedOut: boolean;
  cancelled: boolean;
  /** The program could not be started: ENOENT (not found) or EACCES (not executable). */
  spawnError?: 'ENOENT' | 'EACCES';
  outputTooLarge: boolean;
  durationMs: number;
}

export interface ProcessTreeInput {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
  heartbeatIntervalMs?: number;
}

/** Output kept in memory per stream; beyond it the run is stopped as broken. */
export const MAX_OUTPUT_CHARS = 64 * 1024 * 1024;

/** Kills the whole group; a group that is already gone is fine. */
function killGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left to kill.
  }
}

/**
 * Runs argv (no shell) with exactly `env`, in its own process group. A timeout or an abort kills the group;
 * when the command ends, leftovers it started in the background are killed too.
 */
export async function runProcessTree(input: ProcessTreeInput): Promise<ProcessTreeRun> {
  const [file = '', ...args] = input.argv;
  const started = Date.now();
  const subprocess = execa(file, args, {
    cwd: input.cwd,
    env: input.env,
    extendEnv: false,
    detached: true, // own process group: kill(-pid) reaches every child and grandchild
    reject: false,
    stdin: 'ignore',
    stripFinalNewline: false,
    maxBuffer: MAX_OUTPUT_CHARS,
  });
  const pgid = subprocess.pid;
  let timedOut = false;
  let cancelled = false;

  // Background children keep the pipes open; killing them when the leader exits lets the run finish.
  subprocess.on('exit', () => killGroup(pgid, 'SIGKILL'));
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(pgid, 'SIGKILL');
  }, input.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    killGroup(pgid, 'SIGKILL');
  };
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted) onAbort();
  const beat = setInterval(() => input.heartbeat?.({ elapsedMs: Date.now() - started }), input.heartbeatIntervalMs ?? 5_000);

  try {
    const result = await subprocess;
    const code = (result as { code?: string }).code;
    return {
      stdout: String(result.stdout ?? ''),
      stderr: String(result.stderr ?? ''),
      exitCode: typeof result.exitCode === 'number' ? result.exitCode : null,
      ...(result.signal ? { signal: result.signal } : {}),
      timedOut,
      cancelled,
      ...(code === 'ENOENT' || code === 'EACCES' ? { spawnError: code } : {}),
      outputTooLarge: result.isMaxBuffer,
      durationMs: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
    clearInterval(beat);
    input.signal?.removeEventListener('abort', onAbort);
  }
}
