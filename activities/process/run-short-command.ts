// Short commands (git) started by the worker itself, their whole output kept in memory.
import { spawn } from 'node:child_process';

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
  /** Written to the child's stdin, which is then closed; without it stdin is closed at once. */
  input?: Buffer;
}

/** Runs a short command to its end and returns its exit and output (whole, in memory: for small outputs only). */
export function runShortCommand(request: ShortCommand): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(request.command, request.args, {
      cwd: request.cwd,
      env: request.env ?? process.env,
      stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    // A child that exits before reading all of its input must not crash the worker with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(request.input);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }),
    );
  });
}
