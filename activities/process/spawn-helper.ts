// Short commands (git) started by a small helper process instead of by the worker itself. Node forks to spawn, and a
// fork copies the page tables of the whole process: in a worker of ~500 MB each spawn blocks its event loop for 6 to
// 13 ms (measured), while the helper, a bare Node process, spawns in about 2 ms and off the worker's event loop.
// The helper lives as long as the worker: it exits (killing what it runs) when the worker's IPC channel closes, so it
// never outlives the worker, even one killed with SIGKILL. When the helper cannot start, commands run directly.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ProcessResult {
  /** The exit code; null when a signal ended the process. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
}

export interface ShortCommand {
  command: string;
  args: string[];
  cwd: string;
  /** The child's whole environment (default: the worker's environment at the time of the call). */
  env?: NodeJS.ProcessEnv;
}

interface Reply {
  id: number;
  code?: number | null;
  signal?: NodeJS.Signals | null;
  stdout?: Uint8Array;
  stderr?: Uint8Array;
  error?: { message: string; code?: string };
}

// Run by `node -e`: CommonJS, no file to find in source or dist/. stdin closed for every command: nothing may prompt.
const helperSource = `
const { spawn } = require('node:child_process');
const running = new Set();
process.on('message', (request) => {
  let done = false;
  const reply = (message) => { if (!done) { done = true; running.delete(child); process.send({ id: request.id, ...message }); } };
  const stdout = [];
  const stderr = [];
  let child;
  try {
    child = spawn(request.command, request.args, { cwd: request.cwd, env: request.env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    reply({ error: { message: error.message, code: error.code } });
    return;
  }
  running.add(child);
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  child.on('error', (error) => reply({ error: { message: error.message, code: error.code } }));
  child.on('close', (code, signal) => reply({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }));
});
process.on('disconnect', () => {
  for (const child of running) child.kill('SIGKILL');
  process.exit(0);
});
`;

type Pending = { resolve: (result: ProcessResult) => void; reject: (error: Error) => void };

class SpawnHelper {
  private child?: ChildProcess;
  private unavailable = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async run(request: ShortCommand): Promise<ProcessResult> {
    const child = this.unavailable ? undefined : this.start();
    if (!child) return runDirectly(request);
    const id = this.nextId++;
    const env = { ...(request.env ?? process.env) };
    const result = new Promise<ProcessResult>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.holdOpen(child, true);
    child.send({ id, command: request.command, args: request.args, cwd: request.cwd, env });
    return result;
  }

  private start(): ChildProcess | undefined {
    if (this.child) return this.child;
    try {
      // The worker's own NODE_OPTIONS (e.g. tsx's loader) would only slow the helper's start.
      const { NODE_OPTIONS: _ignored, ...env } = process.env;
      const child = spawn(process.execPath, ['-e', helperSource], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        serialization: 'advanced',
        env,
      });
      child.on('message', (reply: Reply) => this.settle(reply));
      child.on('error', () => this.stop(child, 'could not start'));
      child.on('exit', (code, signal) => this.stop(child, `exited (${signal ?? code})`));
      this.holdOpen(child, false);
      this.child = child;
      return child;
    } catch {
      this.unavailable = true;
      return undefined;
    }
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0 && this.child) this.holdOpen(this.child, false);
    if (reply.error) {
      const error = Object.assign(new Error(reply.error.message), { code: reply.error.code });
      waiting.reject(error);
      return;
    }
    waiting.resolve({
      code: reply.code ?? null,
      signal: reply.signal ?? null,
      stdout: asBuffer(reply.stdout),
      stderr: asBuffer(reply.stderr),
    });
  }

  /** The helper died: what it was running is unknown (it may have run), so those calls fail; the next call restarts it. */
  private stop(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.reject(new Error(`the spawn helper ${why} while a command was running`));
    }
  }

  /** An idle helper must not keep the worker (or a test process) alive. */
  private holdOpen(child: ChildProcess, hold: boolean): void {
    const channel = child.channel as { ref(): void; unref(): void } | undefined;
    if (hold) {
      child.ref();
      channel?.ref();
    } else {
      child.unref();
      channel?.unref();
    }
  }
}

const asBuffer = (bytes: Uint8Array | undefined) =>
  bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.alloc(0);

function runDirectly(request: ShortCommand): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(request.command, request.args, {
      cwd: request.cwd,
      env: request.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }),
    );
  });
}

const helper = new SpawnHelper();

/** Runs a short command to its end and returns its exit and output (whole, in memory: for small outputs only). */
export function runShortCommand(request: ShortCommand): Promise<ProcessResult> {
  return helper.run(request);
}

/** The helper's process id while it runs (for tests and diagnostics). */
export function spawnHelperPid(): number | undefined {
  return helper.pid;
}
