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
}

/** Runs a short command to its end and returns its exit and output (whole, in memory: for small outputs only). */
export function runShortCommand(request: ShortCommand): Promise<ProcessResult> {
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
