// A command in a process group of its own, its output streamed to capped files (the test runs).
import { spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Duplex, Readable } from 'node:stream';

export interface GroupCommand {
  command: string;
  args: string[];
  cwd: string;
  /** The child's whole environment. */
  env: NodeJS.ProcessEnv;
  stdoutFile: string;
  stderrFile: string;
  /** Bytes kept per stream; beyond it the group is killed and `outputTooLarge` set. */
  maxOutputBytes: number;
  /** Pipes given to the command as descriptors 3, 4…, handed to `onStarted` (bwrap's info and block descriptors). */
  extraPipes?: number;
}

export interface GroupResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  outputTooLarge: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  /** The program could not be started: ENOENT (not found) or EACCES (not executable). */
  spawnError?: 'ENOENT' | 'EACCES';
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

/** Streams `source` to `sink` up to `maxBytes`, then calls `onOverflow` and drops the rest; resolves with the bytes kept. */
function copyCapped(source: Readable, sink: WriteStream, maxBytes: number, onOverflow: () => void): Promise<number> {
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

/**
 * Runs a command as the leader of a new process group (its id is `onStarted`'s argument, so the caller can record it
 * and kill the group), with stdout and stderr streamed to files up to `maxOutputBytes` each: beyond that the group is
 * killed and `outputTooLarge` set. When the leader exits, what it left running in its group is killed too.
 */
export async function runGroup(
  request: GroupCommand,
  onStarted: (pgid: number, pipes: Duplex[]) => void,
): Promise<GroupResult> {
  const extra = Array.from({ length: request.extraPipes ?? 0 }, () => 'pipe' as const);
  const child = spawn(request.command, request.args, {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', ...extra],
  });
  const pgid = child.pid;
  // Both are pipes (stdio above); extra descriptors are sockets, both readable and writable.
  const [stdout, stderr] = [child.stdio[1], child.stdio[2]] as [Readable, Readable];
  const extraPipes = child.stdio.slice(3) as unknown as Duplex[];
  let outputTooLarge = false;
  const stop = () => killGroup(pgid);
  const overflow = () => {
    outputTooLarge = true;
    stop();
  };
  const stdoutDone = copyCapped(stdout, createWriteStream(request.stdoutFile), request.maxOutputBytes, overflow);
  const stderrDone = copyCapped(stderr, createWriteStream(request.stderrFile), request.maxOutputBytes, overflow);
  // A log file that cannot be opened (its folder removed under a run) fails the copies before the leader exits: held
  // here at once, so that is this run's error when awaited below, never an unhandled rejection that ends the worker.
  const copies = Promise.all([stdoutDone, stderrDone]);
  copies.catch(() => undefined);
  if (pgid !== undefined) onStarted(pgid, extraPipes);
  const end = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: NodeJS.ErrnoException }>(
    (resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      // Background children keep the pipes open; killing the group when the leader exits lets the run finish.
      child.once('exit', (code, signal) => {
        stop();
        resolve({ code, signal });
      });
    },
  );
  // A process that left the group (setsid) may still hold the pipes: stop reading them soon after the exit.
  const release = setTimeout(() => {
    stdout.destroy();
    stderr.destroy();
  }, 2_000);
  for (const pipe of extraPipes) pipe.destroy();
  let bytes: number[];
  try {
    bytes = await copies;
  } finally {
    clearTimeout(release);
  }
  const spawnError = end.error?.code === 'ENOENT' || end.error?.code === 'EACCES' ? end.error.code : undefined;
  if (end.error && !spawnError) throw end.error;
  return {
    code: end.code,
    signal: end.signal,
    outputTooLarge,
    stdoutBytes: bytes[0] ?? 0,
    stderrBytes: bytes[1] ?? 0,
    ...(spawnError ? { spawnError } : {}),
  };
}
