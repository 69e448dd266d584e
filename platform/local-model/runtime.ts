// Which program serves a local model: node-llama-cpp (the default: prebuilt binaries from npm, installed in minutes)
// or llama.cpp's llama-server (built from source, 20 to 50 minutes on 2 cores). Both serve the same OpenAI protocol
// from a child process; `--runtime` on `taskloop model install|serve` or TASKLOOP_LOCAL_RUNTIME for a worker chooses.
import { serverRuns } from './install.js';
import { defaultThreads, startLlamaServer } from './llama-server.js';
import { nodeLlamaRuntimeInstalled } from './node-llama/install-runtime.js';
import { nodeLlamaRuntimeDir } from './node-llama/runtime-pins.js';
import { startNodeLlamaServer } from './node-llama/start.js';
import type { RunningModelServer } from './owned-process.js';
import { localModelPaths } from './pins.js';

import { DEFAULT_LOCAL_RUNTIME, localRuntimes, type LocalRuntime } from './runtime-names.js';

export { DEFAULT_LOCAL_RUNTIME, localRuntimes, type LocalRuntime };

export class LocalRuntimeChoiceError extends Error {
  override name = 'LocalRuntimeChoiceError';
}

/** The runtime `flag` names (a `--runtime` value), else TASKLOOP_LOCAL_RUNTIME, else the default; a bad name is refused. */
export function chooseLocalRuntime(env: NodeJS.ProcessEnv = process.env, flag?: string): LocalRuntime {
  const [value, where] =
    flag !== undefined ? [flag, '--runtime'] : [env.TASKLOOP_LOCAL_RUNTIME?.trim(), 'TASKLOOP_LOCAL_RUNTIME'];
  if (value === undefined || value === '') return DEFAULT_LOCAL_RUNTIME;
  if ((localRuntimes as readonly string[]).includes(value)) return value as LocalRuntime;
  throw new LocalRuntimeChoiceError(
    `${where} is ${JSON.stringify(value)}; use ${localRuntimes.join(' or ')} (default ${DEFAULT_LOCAL_RUNTIME})`,
  );
}

/** Where the runtime lives in the cache (for messages), and whether it is installed and usable. */
export async function localRuntimeInstalled(
  runtime: LocalRuntime,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ installed: boolean; where: string }> {
  if (runtime === 'node-llama-cpp')
    return { installed: await nodeLlamaRuntimeInstalled(env), where: nodeLlamaRuntimeDir(env) };
  const { serverBinary } = localModelPaths(env);
  return { installed: await serverRuns(serverBinary), where: serverBinary };
}

export interface LocalServerOptions {
  model: string;
  port: number;
  ctx: number;
  alias: string;
  logFile?: string;
  threads?: number;
  readyTimeoutMs?: number;
}

/** Starts the runtime's server on loopback with `options` (the runtime must be installed). */
export function startLocalServer(
  runtime: LocalRuntime,
  options: LocalServerOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningModelServer> {
  if (runtime === 'llama-server') return startLlamaServer({ ...options, binary: localModelPaths(env).serverBinary });
  return startNodeLlamaServer({
    ...options,
    runtimeDir: nodeLlamaRuntimeDir(env),
    threads: options.threads ?? defaultThreads(),
  });
}
