// The worker's commands (git, and the sandboxed test runs) are started by a small helper process, not by the worker
// itself. Node forks to spawn, and a fork copies the page tables of the whole process: in a worker of ~500 MB each
// spawn blocks its event loop for 6 to 13 ms (measured), while the helper (spawn-helper-main.mjs, a bare Node
// process) spawns in about 2 ms, off the worker's event loop. The helper lives as long as the worker: it exits,
// killing what it runs, when the worker's IPC channel closes, so it never outlives the worker, even one killed with
// SIGKILL. When the helper cannot start, short commands run directly.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../platform/paths.js';

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

/** A command run in its own process group with its output streamed to capped files (see runTreeInHelper). */
export interface TreeCommand extends ShortCommand {
  env: NodeJS.ProcessEnv;
  stdoutFile: string;
  stderrFile: string;
  maxOutputBytes: number;
}

export interface TreeResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  outputTooLarge: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  /** The program could not be started: ENOENT (not found) or EACCES (not executable). */
  spawnError?: 'ENOENT' | 'EACCES';
}

interface Reply extends Partial<Omit<TreeResult, 'code' | 'signal'>> {
  id: number;
  /** `started` (tree commands): the process group runs, `pid` is its id; the reply that ends the call comes later. */
  event?: 'started';
  pid?: number;
  code?: number | null;
  signal?: NodeJS.Signals | null;
  stdout?: Uint8Array;
  stderr?: Uint8Array;
  error?: { message: string; code?: string };
}

// Plain JavaScript beside this file, found from the checkout's root so that dist/ runs the same file.
const helperMain = path.join(projectRoot, 'activities', 'process', 'spawn-helper-main.mjs');

type Pending = { resolve: (reply: Reply) => void; reject: (error: Error) => void; onStarted?: (pid: number) => void };

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
    const reply = await this.call(child, { kind: 'run', ...request, env: { ...(request.env ?? process.env) } });
    return {
      code: reply.code ?? null,
      signal: reply.signal ?? null,
      stdout: asBuffer(reply.stdout),
      stderr: asBuffer(reply.stderr),
    };
  }

  async runTree(request: TreeCommand, onStarted: (pgid: number) => void): Promise<TreeResult> {
    const child = this.unavailable ? undefined : this.start();
    if (!child) throw new Error(`the spawn helper (${helperMain}) could not start, so ${request.command} cannot run`);
    const reply = await this.call(child, { kind: 'tree', ...request }, onStarted);
    return {
      code: reply.code ?? null,
      signal: reply.signal ?? null,
      outputTooLarge: reply.outputTooLarge ?? false,
      stdoutBytes: reply.stdoutBytes ?? 0,
      stderrBytes: reply.stderrBytes ?? 0,
      ...(reply.spawnError ? { spawnError: reply.spawnError } : {}),
    };
  }

  private call(child: ChildProcess, request: object, onStarted?: (pid: number) => void): Promise<Reply> {
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve, reject) => this.pending.set(id, { resolve, reject, onStarted }));
    this.holdOpen(child, true);
    child.send({ id, ...request });
    return reply;
  }

  private start(): ChildProcess | undefined {
    if (this.child) return this.child;
    try {
      // The worker's own NODE_OPTIONS (e.g. tsx's loader) would only slow the helper's start.
      const { NODE_OPTIONS: _ignored, ...env } = process.env;
      const child = spawn(process.execPath, [helperMain], {
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
    if (reply.event === 'started') {
      if (reply.pid !== undefined) waiting.onStarted?.(reply.pid);
      return;
    }
    this.pending.delete(reply.id);
    if (this.pending.size === 0 && this.child) this.holdOpen(this.child, false);
    if (reply.error) waiting.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    else waiting.resolve(reply);
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

/**
 * Runs a command in its own process group (its id is `onStarted`'s argument, so the caller can record it and kill
 * the group), with stdout and stderr streamed to files up to `maxOutputBytes` each: beyond that the group is killed
 * and `outputTooLarge` set. When the leader exits, what it left running in its group is killed too.
 */
export function runTreeInHelper(request: TreeCommand, onStarted: (pgid: number) => void): Promise<TreeResult> {
  return helper.runTree(request, onStarted);
}

/** The helper's process id while it runs (for tests and diagnostics). */
export function spawnHelperPid(): number | undefined {
  return helper.pid;
}
