// Runs one command in its own process group with its output streamed to files (capped), so a timeout,
// a cancellation or an overflow can kill everything it started and no output is held in memory.
import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';

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
  heartbeatIntervalMs?: number;
  /** Called with the group id once the process runs (to record it durably), and with undefined when it ended. */
  onGroup?: (pgid: number | undefined) => Promise<void>;
}

/** Kills the whole group; a group that is already gone is fine. */
export function killGroup(pgid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left to kill.
  }
}

/**
 * Runs argv (no shell) in its own process group. A timeout, an abort or too much output kills the group;
 * when the command ends, leftovers it started in the background are killed too.
 */
export async function runProcessTree(input: ProcessTreeInput): Promise<ProcessTreeRun> {
  const [file = '', ...args] = input.argv;
  const started = Date.now();
  const stdoutFile = createWriteStream(input.stdoutFile);
  const stderrFile = createWriteStream(input.stderrFile);
  const child = spawn(file, args, {
    cwd: input.cwd,
    env: input.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = child.pid;
  let timedOut = false;
  let cancelled = false;
  let outputTooLarge = false;
  const stop = () => killGroup(pgid, 'SIGKILL');
  const overflow = () => {
    outputTooLarge = true;
    stop();
  };
  const stdoutDone = copyCapped(child.stdout, stdoutFile, input.maxOutputBytes, overflow);
  const stderrDone = copyCapped(child.stderr, stderrFile, input.maxOutputBytes, overflow);
  if (pgid !== undefined) await input.onGroup?.(pgid);

  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, input.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted) onAbort();
  const beat = setInterval(
    () => input.heartbeat?.({ elapsedMs: Date.now() - started, pgid }),
    input.heartbeatIntervalMs ?? 5_000,
  );

  try {
    const ended = await new Promise<{
      code: number | null;
      signal: NodeJS.Signals | null;
      error?: NodeJS.ErrnoException;
    }>((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => resolve({ code: null, signal: null, error }));
      // Background children keep the pipes open; killing the group when the leader exits lets the run finish.
      child.once('exit', (code, signal) => {
        stop();
        resolve({ code, signal });
      });
    });
    // A process that left the group (setsid) may still hold the pipes: stop reading them soon after the exit.
    const release = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, 2_000);
    const [stdoutBytes, stderrBytes] = await Promise.all([stdoutDone, stderrDone]).finally(() => clearTimeout(release));
    const spawnError = ended.error?.code === 'ENOENT' || ended.error?.code === 'EACCES' ? ended.error.code : undefined;
    if (ended.error && !spawnError) throw ended.error;
    return {
      exitCode: ended.code,
      ...(ended.signal ? { signal: ended.signal } : {}),
      timedOut,
      cancelled,
      ...(spawnError ? { spawnError } : {}),
      outputTooLarge,
      durationMs: Date.now() - started,
      stdoutBytes,
      stderrBytes,
    };
  } finally {
    clearTimeout(timer);
    clearInterval(beat);
    input.signal?.removeEventListener('abort', onAbort);
    await input.onGroup?.(undefined);
  }
}

/** Streams `source` to `sink` up to `maxBytes`, then calls `onOverflow` and drops the rest; resolves with the bytes kept. */
function copyCapped(
  source: Readable | null,
  sink: WriteStream,
  maxBytes: number,
  onOverflow: () => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let overflowed = false;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      sink.end(() => resolve(written));
    };
    sink.on('error', reject);
    if (!source) {
      finish();
      return;
    }
    source.on('data', (chunk: Buffer) => {
      if (overflowed) return;
      const room = maxBytes - written;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      written += part.length;
      if (part.length > 0 && !sink.write(part)) {
        source.pause();
        sink.once('drain', () => source.resume());
      }
      if (chunk.length > room) {
        overflowed = true;
        onOverflow();
      }
    });
    source.once('end', finish);
    source.once('close', finish);
    source.once('error', finish);
  });
}
