// Runs one command in its own process group with its output streamed to files (capped), so a timeout,
// a cancellation or an overflow can kill everything it started and no output is held in memory.
import type { Duplex } from 'node:stream';
import { HEARTBEAT_INTERVAL_MS } from '../heartbeat-while.js';
import { killGroup, runGroup } from '../process/run-group.js';

export interface ProcessTreeRun {
  exitCode: number | null;
  /** The signal that ended the command, when one did. */
  signal?: string;
  timedOut: boolean;
  cancelled: boolean;
  /** The program could not be started: ENOENT (not found) or EACCES (not executable). */
  spawnError?: 'ENOENT' | 'EACCES';
  outputTooLarge: boolean;
  durationMs: number;
  stdoutBytes: number;
  stderrBytes: number;
}

export interface ProcessTreeInput {
  argv: string[];
  cwd: string;
  /** The whole environment of the process; nothing of the worker's is merged in. */
  env: Record<string, string>;
  timeoutMs: number;
  stdoutFile: string;
  stderrFile: string;
  /** Bytes written per stream; beyond it the group is killed and `outputTooLarge` set. */
  maxOutputBytes: number;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
  /** Kills the group when aborted without counting as a cancellation: a limit the caller watches was passed. */
  stopSignal?: AbortSignal;
  heartbeatIntervalMs?: number;
  /** Called with the group id once the process runs (to record it durably), and with undefined when it ended. */
  onGroup?: (pgid: number | undefined) => Promise<void>;
  /** Pipes given to the command as descriptors 3, 4…, handed to `onPipes` once it runs. */
  extraPipes?: number;
  onPipes?: (pipes: Duplex[]) => void;
}

export { killGroup };

/**
 * Runs argv (no shell) in its own process group (activities/process/run-group.ts). A timeout, an abort or too much
 * output kills the group; when the command ends, leftovers it started in the background are killed too.
 */
export async function runProcessTree(input: ProcessTreeInput): Promise<ProcessTreeRun> {
  const [file = '', ...args] = input.argv;
  const started = Date.now();
  let pgid: number | undefined;
  let timedOut = false;
  let cancelled = false;
  const stop = () => killGroup(pgid, 'SIGKILL');
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, input.timeoutMs);
  const beat = setInterval(
    () => input.heartbeat?.({ elapsedMs: Date.now() - started, pgid }),
    input.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS,
  );
  // Set once the group is recorded (onGroup), so that its record is cleared at the end.
  let recorded: Promise<void> | undefined;
  try {
    const ended = await runGroup(
      {
        command: file,
        args,
        cwd: input.cwd,
        env: input.env,
        stdoutFile: input.stdoutFile,
        stderrFile: input.stderrFile,
        maxOutputBytes: input.maxOutputBytes,
        extraPipes: input.extraPipes,
      },
      (group, pipes) => {
        pgid = group;
        input.onPipes?.(pipes);
        recorded = input.onGroup?.(group) ?? Promise.resolve();
        // A cancel that came before the group existed stops it now.
        input.signal?.addEventListener('abort', onAbort, { once: true });
        if (input.signal?.aborted) onAbort();
        input.stopSignal?.addEventListener('abort', stop, { once: true });
        if (input.stopSignal?.aborted) stop();
      },
    );
    await recorded;
    return {
      exitCode: ended.code,
      ...(ended.signal ? { signal: ended.signal } : {}),
      timedOut,
      cancelled,
      ...(ended.spawnError ? { spawnError: ended.spawnError } : {}),
      outputTooLarge: ended.outputTooLarge,
      durationMs: Date.now() - started,
      stdoutBytes: ended.stdoutBytes,
      stderrBytes: ended.stderrBytes,
    };
  } finally {
    clearTimeout(timer);
    clearInterval(beat);
    input.signal?.removeEventListener('abort', onAbort);
    input.stopSignal?.removeEventListener('abort', stop);
    if (recorded) {
      await recorded.catch(() => undefined);
      await input.onGroup?.(undefined);
    }
  }
}
