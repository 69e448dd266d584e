// The spawn helper's own process (started by activities/process/spawn-helper.ts): a bare Node process that starts
// the worker's commands, so the worker never forks itself. Plain JavaScript, run as it is from source and from
// dist/ alike. Requests come over the IPC channel:
// - `run`: a short command; the reply carries its exit and whole output.
// - `tree`: a command in its own process group, output streamed to files up to a cap; a `started` message gives the
//   group id at once (the worker records it, and kills the group on a timeout or a cancel), the reply its end.
// When the worker's channel closes (the worker ended, even by SIGKILL), everything still running is killed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { clearTimeout, setTimeout } from 'node:timers';

const running = new Map();

function send(message) {
  if (process.connected) process.send(message);
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill.
  }
}

function runShort(request) {
  let done = false;
  const stdout = [];
  const stderr = [];
  const reply = (message) => {
    if (done) return;
    done = true;
    running.delete(request.id);
    send({ id: request.id, ...message });
  };
  let child;
  try {
    child = spawn(request.command, request.args, {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    reply({ error: { message: error.message, code: error.code } });
    return;
  }
  running.set(request.id, () => child.kill('SIGKILL'));
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  child.on('error', (error) => reply({ error: { message: error.message, code: error.code } }));
  child.on('close', (code, signal) =>
    reply({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }),
  );
}

/** Streams `source` to `sink` up to `maxBytes`, then calls `onOverflow` and drops the rest; resolves with the bytes kept. */
function copyCapped(source, sink, maxBytes, onOverflow) {
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
    source.on('data', (chunk) => {
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

function runTree(request) {
  const child = spawn(request.command, request.args, {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = child.pid;
  let outputTooLarge = false;
  const stop = () => pgid !== undefined && killGroup(pgid);
  const overflow = () => {
    outputTooLarge = true;
    stop();
  };
  const stdoutDone = copyCapped(child.stdout, createWriteStream(request.stdoutFile), request.maxOutputBytes, overflow);
  const stderrDone = copyCapped(child.stderr, createWriteStream(request.stderrFile), request.maxOutputBytes, overflow);
  running.set(request.id, stop);
  if (pgid !== undefined) send({ id: request.id, event: 'started', pid: pgid });
  const ended = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    // Background children keep the pipes open; killing the group when the leader exits lets the run finish.
    child.once('exit', (code, signal) => {
      stop();
      resolve({ code, signal });
    });
  });
  void ended.then(async (end) => {
    // A process that left the group (setsid) may still hold the pipes: stop reading them soon after the exit.
    const release = setTimeout(() => {
      child.stdout.destroy();
      child.stderr.destroy();
    }, 2_000);
    let bytes = [0, 0];
    let failure;
    try {
      bytes = await Promise.all([stdoutDone, stderrDone]);
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(release);
    }
    running.delete(request.id);
    const spawnError = end.error?.code === 'ENOENT' || end.error?.code === 'EACCES' ? end.error.code : undefined;
    const error = failure ?? (end.error && !spawnError ? end.error : undefined);
    if (error) {
      send({ id: request.id, error: { message: error.message, code: error.code } });
      return;
    }
    send({
      id: request.id,
      code: end.code,
      signal: end.signal,
      outputTooLarge,
      stdoutBytes: bytes[0],
      stderrBytes: bytes[1],
      ...(spawnError ? { spawnError } : {}),
    });
  });
}

process.on('message', (request) => {
  try {
    if (request.kind === 'tree') runTree(request);
    else runShort(request);
  } catch (error) {
    // A request spawn refuses outright (bad arguments) fails alone; the helper goes on serving.
    running.delete(request.id);
    send({ id: request.id, error: { message: error.message, code: error.code } });
  }
});

process.on('disconnect', () => {
  for (const kill of running.values()) kill();
  process.exit(0);
});
