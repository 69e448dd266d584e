// The local model server a worker starts itself (node-llama-cpp's, or llama-server with TASKLOOP_LOCAL_RUNTIME) for `local:<name>` (a bundled model) or `local:<path>.gguf` (any GGUF file
// with a chat template): one per model and process, started on first use on a free loopback port, started again on
// the same port when it died (a crash or a kill must not lose the task), and stopped with the process (see the owner
// watch in llama-server.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { stateDir } from '../paths.js';
import { findFreePort, isPortFree } from '../server/ports.js';
import { modelLooksComplete } from './assemble-model.js';
import { GgufFormatError, ggufString, readGgufMetadata } from './gguf-metadata.js';
import { DEFAULT_LOCAL_MODEL_CTX, MAX_LOCAL_MODEL_CTX, MIN_LOCAL_MODEL_CTX } from './llama-server.js';
import type { RunningModelServer as RunningLlamaServer } from './owned-process.js';
import { bundledModel, localModelNames, localModelPaths } from './pins.js';
import {
  chooseLocalRuntime,
  localRuntimeInstalled,
  LocalRuntimeChoiceError,
  startLocalServer,
  type LocalRuntime,
} from './runtime.js';

/** The local model cannot be used as named: retrying will not help, the message says what will. */
export class LocalModelUnusable extends Error {
  override name = 'LocalModelUnusable';
}

interface Owned {
  server: Promise<RunningLlamaServer>;
  alive: boolean;
}

/** What a `local:` spec names: a bundled model by name, or a GGUF file by path. */
interface LocalModelChoice {
  /** What the spec says after `local:` (the server's alias too, so replies name what was asked). */
  name: string;
  file: string;
  /** A bundled model's size, for the cheap completeness check. */
  bytes?: number;
}

const owned = new Map<string, Owned>();
const lastPorts = new Map<string, number>();

/** A spec naming a file rather than a bundled model: a path (with a slash) or a name ending in .gguf. */
export const namesGgufFile = (name: string): boolean => name.includes('/') || name.toLowerCase().endsWith('.gguf');

function choose(name: string, env: NodeJS.ProcessEnv): LocalModelChoice {
  if (namesGgufFile(name)) return { name, file: path.resolve(name) };
  const model = bundledModel(name);
  if (!model)
    throw new LocalModelUnusable(
      `local model '${name}' is not one taskloop installs; use local:${localModelNames.join(' or local:')}, local:/path/to/model.gguf for a GGUF file you have, or openai:<model> with OPENAI_BASE_URL for a server you run`,
    );
  return { name, file: localModelPaths(env, model).model, bytes: model.bytes };
}

/** The owned server's base URL for `name`, starting it (again) when it is not running. */
export async function ensureOwnedLocalServer(
  name: string,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const choice = choose(name, env);
  const running = owned.get(choice.name);
  if (running?.alive) return (await running.server).baseURL;
  localModelCtx(env);
  // Set before the first await: concurrent activities share one start instead of racing for the port.
  const entry: Owned = { server: checkAndStart(choice, env, options.log), alive: true };
  owned.set(choice.name, entry);
  try {
    const server = await entry.server;
    void server.exited.then((code) => {
      entry.alive = false;
      options.log?.(`local model server (port ${server.port}) stopped with status ${code}; it restarts on next use`);
    });
    return server.baseURL;
  } catch (error) {
    entry.alive = false;
    throw error;
  }
}

/** Checks a user's GGUF file: there, readable as GGUF, and with a chat template (without one tools are not rendered). */
async function checkGgufFile(choice: LocalModelChoice): Promise<void> {
  const metadata = await readGgufMetadata(choice.file).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES')
      throw new LocalModelUnusable(
        `local:${choice.name}: ${choice.file} cannot be read (${code}); name an existing GGUF file, e.g. local:/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf`,
      );
    if (error instanceof GgufFormatError) throw new LocalModelUnusable(`local:${choice.name}: ${error.message}`);
    throw error;
  });
  if (ggufString(metadata, 'tokenizer.chat_template') === undefined)
    throw new LocalModelUnusable(
      `local:${choice.name}: ${choice.file} carries no chat template (tokenizer.chat_template), so llama-server cannot render tools for it; ` +
        'use a GGUF with one (an instruct model), or serve it yourself with --jinja --chat-template-file and use openai:<model> with OPENAI_BASE_URL',
    );
}

async function checkAndStart(
  choice: LocalModelChoice,
  env: NodeJS.ProcessEnv,
  log: ((line: string) => void) | undefined,
): Promise<RunningLlamaServer> {
  // A user's file is checked first: its problem is theirs to fix whatever the server's state.
  if (choice.bytes === undefined) await checkGgufFile(choice);
  const runtime = chosenRuntime(env);
  const { installed, where } = await localRuntimeInstalled(runtime, env);
  const modelThere = choice.bytes === undefined ? true : await modelLooksComplete(choice.file, { bytes: choice.bytes });
  if (!installed || !modelThere) {
    const install = `taskloop model install${choice.bytes === undefined ? '' : ` --model ${choice.name}`}${runtime === 'llama-server' ? ' --runtime llama-server' : ''}`;
    throw new LocalModelUnusable(
      `local:${choice.name} is not installed on this worker's machine (${runtime}: ${where}${choice.bytes === undefined ? '' : `; model: ${choice.file}`}); run ${install} (or npm run setup -- --local-model) there`,
    );
  }
  return startOwned(choice, runtime, env, log);
}

/** TASKLOOP_LOCAL_RUNTIME, checked: a bad name fails the task at once with the names to use. */
function chosenRuntime(env: NodeJS.ProcessEnv): LocalRuntime {
  try {
    return chooseLocalRuntime(env);
  } catch (error) {
    if (error instanceof LocalRuntimeChoiceError) throw new LocalModelUnusable(error.message);
    throw error;
  }
}

/** The context size from TASKLOOP_LOCAL_MODEL_CTX, checked: a bad value is refused, not ignored. */
export function localModelCtx(env: NodeJS.ProcessEnv): number {
  const text = env.TASKLOOP_LOCAL_MODEL_CTX?.trim();
  if (!text) return DEFAULT_LOCAL_MODEL_CTX;
  const value = Number(text);
  if (!Number.isInteger(value) || value < MIN_LOCAL_MODEL_CTX || value > MAX_LOCAL_MODEL_CTX)
    throw new LocalModelUnusable(
      `TASKLOOP_LOCAL_MODEL_CTX is ${JSON.stringify(text)}; set it to a whole number of tokens from ${MIN_LOCAL_MODEL_CTX} to ${MAX_LOCAL_MODEL_CTX} (default ${DEFAULT_LOCAL_MODEL_CTX}), or unset it`,
    );
  return value;
}

async function startOwned(
  choice: LocalModelChoice,
  runtime: LocalRuntime,
  env: NodeJS.ProcessEnv,
  log: ((line: string) => void) | undefined,
): Promise<RunningLlamaServer> {
  // The same port after a restart, so a base URL already handed out keeps working.
  const lastPort = lastPorts.get(choice.name);
  const port = lastPort !== undefined && (await isPortFree(lastPort)) ? lastPort : await findFreePort();
  lastPorts.set(choice.name, port);
  const logDir = path.join(stateDir(env), 'local-model');
  await mkdir(logDir, { recursive: true });
  const ctx = localModelCtx(env);
  const logFile = path.join(logDir, `${runtime}-${process.pid}.log`);
  const server = await startLocalServer(runtime, { model: choice.file, port, ctx, logFile, alias: choice.name }, env);
  log?.(
    `local model server (${runtime}) for ${choice.name} started: ${server.baseURL} (pid ${server.pid}, log ${logFile})`,
  );
  return server;
}

/** The running owned server of `name` (the only one when not named), if any (tests kill it to show a restart). */
export async function ownedLocalServer(name?: string): Promise<RunningLlamaServer | undefined> {
  const entry = name === undefined ? [...owned.values()].find((candidate) => candidate.alive) : owned.get(name);
  return entry?.alive ? entry.server : undefined;
}

/** Stops the owned servers (a worker shutting down; tests). */
export async function stopOwnedLocalServer(): Promise<void> {
  const current = [...owned.values()];
  owned.clear();
  await Promise.all(
    current.map(async (entry) => {
      if (entry.alive) await (await entry.server.catch(() => undefined))?.stop();
    }),
  );
}
