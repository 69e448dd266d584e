// Starts llama.cpp's server on loopback with what tool calling needs, and waits until it answers /health.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import { isPortFree } from '../server/ports.js';
import { defaultLocalModel } from './pins.js';

export const DEFAULT_LOCAL_MODEL_PORT = 8080;
/** Enough for taskloop's first prompts (about 3k tokens on the demo, 6k on a real repository) plus replies. */
export const DEFAULT_LOCAL_MODEL_CTX = 8192;
/** Below this the coder's first prompt does not fit. */
export const MIN_LOCAL_MODEL_CTX = 4096;
/**
 * The server's own output limit for a request that sets none: without it a small model can generate until the
 * context is full (minutes at 10 to 30 tokens/s), and every call times out.
 */
export const LOCAL_MODEL_MAX_OUTPUT = 512;
/** Qwen2.5-Coder was trained for 32k tokens (`qwen2.context_length` in its GGUF). */
export const MAX_LOCAL_MODEL_CTX = 32768;

export interface LlamaServerOptions {
  binary: string;
  model: string;
  port: number;
  ctx: number;
  /** CPU threads (default: all cores but one, at least one). */
  threads?: number;
  /** The name the server answers to (`model` in requests and replies). */
  alias?: string;
  /** A chat template to use instead of the one the GGUF carries (a model whose file has none). */
  templateFile?: string;
}

/**
 * One core is left to the worker, pytest and Temporal: on a busy machine, threads that wait for each other's share
 * of a core made the server 6 to 9 times slower here (2 cores, load 11: 1 token/s with 2 threads, 8.8 with 1).
 */
export function defaultThreads(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

/**
 * The server's arguments. `--jinja`, so the chat template in the GGUF renders tools and tool calls (Qwen's does; a
 * template file only for a model whose GGUF has none); `--no-repack` because on CPUs that advertise AMX without being
 * able to use it the repacked weights crash the first matrix multiply; one slot, so the whole context serves one
 * request; an output limit for requests that set none.
 */
export function llamaServerArgs(options: LlamaServerOptions): string[] {
  return [
    '--model',
    options.model,
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--ctx-size',
    String(options.ctx),
    '--parallel',
    '1',
    '--threads',
    String(options.threads ?? defaultThreads()),
    '--n-predict',
    String(LOCAL_MODEL_MAX_OUTPUT),
    '--jinja',
    ...(options.templateFile === undefined ? [] : ['--chat-template-file', options.templateFile]),
    '--no-repack',
    '--alias',
    options.alias ?? defaultLocalModel.name,
    '--no-webui',
  ];
}

// Runs the server as a child of a small shell that also watches its own stdin: when the Node process that started
// it dies, even by SIGKILL, the pipe closes and the shell stops the server, so it never outlives its owner. The
// server's pid goes to fd 3 (the real process, for tests that kill it).
const ownerWatch = `
exec 5<&0
"$@" </dev/null 3>&- 5<&- &
server=$!
printf '%s\\n' "$server" >&3
exec 3>&-
trap 'kill -TERM "$server" 2>/dev/null' TERM INT HUP
( while read -r _ <&5; do :; done; kill -TERM "$server" 2>/dev/null ) &
watcher=$!
exec 5<&-
status=0
while kill -0 "$server" 2>/dev/null; do wait "$server"; status=$?; done
kill "$watcher" 2>/dev/null
exit "$status"
`;

export interface RunningLlamaServer {
  /** `http://127.0.0.1:<port>/v1`: what OPENAI_BASE_URL should be. */
  baseURL: string;
  port: number;
  /** The llama-server process itself. */
  pid: number;
  /** Resolves with the exit code (128 + n for signal n) when the server has stopped. */
  exited: Promise<number>;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  stop(): Promise<void>;
}

export class LlamaServerError extends Error {
  override name = 'LlamaServerError';
}

/** Starts the server; its output goes to `logFile`, or to this process's stderr when none is given. */
export async function startLlamaServer(
  options: LlamaServerOptions & { logFile?: string; readyTimeoutMs?: number },
): Promise<RunningLlamaServer> {
  if (!(await isPortFree(options.port)))
    throw new LlamaServerError(
      `port ${options.port} on 127.0.0.1 is already in use; choose another with --port (or stop what listens there)`,
    );
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  if (log) await new Promise((resolve) => log.once('open', resolve));
  const child = spawn('sh', ['-c', ownerWatch, 'llama-server', options.binary, ...llamaServerArgs(options)], {
    stdio: ['pipe', log ?? 'inherit', log ?? 'inherit', 'pipe'],
  });
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (code, signal) => {
      log?.end();
      resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15));
    }),
  );
  const pid = await readPid(child, exited);
  const baseURL = `http://127.0.0.1:${options.port}/v1`;
  const stop = async () => {
    child.stdin?.end();
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilHealthy(options.port, exited, options.readyTimeoutMs ?? 120_000, options.logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, port: options.port, pid, exited, stop };
}

function readPid(child: ChildProcess, exited: Promise<number>): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const pipe = child.stdio[3] as NodeJS.ReadableStream | null;
    pipe?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const pid = Number(text.trim());
      if (text.includes('\n') && Number.isInteger(pid) && pid > 0) resolve(pid);
    });
    void exited.then((code) => reject(new LlamaServerError(`llama-server exited at once (status ${code})`)));
  });
}

async function waitUntilHealthy(
  port: number,
  exited: Promise<number>,
  timeoutMs: number,
  logFile: string | undefined,
): Promise<void> {
  let status: number | undefined;
  void exited.then((code) => (status = code));
  const where = logFile ? ` (its log: ${logFile})` : '';
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (status !== undefined)
      throw new LlamaServerError(`llama-server stopped with status ${status} before it was ready${where}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new LlamaServerError(`llama-server did not answer /health on port ${port} within ${timeoutMs} ms${where}`);
}
