// Starts llama.cpp's server on loopback with what tool calling needs, and waits until it answers /health.
import os from 'node:os';
import { startServerProcess, type RunningModelServer } from './owned-process.js';
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

export {
  ModelServerError as LlamaServerError,
  type RunningModelServer as RunningLlamaServer,
} from './owned-process.js';

/** Starts llama-server; its output goes to `logFile`, or to this process's stderr when none is given. */
export function startLlamaServer(
  options: LlamaServerOptions & { logFile?: string; readyTimeoutMs?: number },
): Promise<RunningModelServer> {
  return startServerProcess({
    ...options,
    name: 'llama-server',
    command: options.binary,
    args: llamaServerArgs(options),
  });
}
