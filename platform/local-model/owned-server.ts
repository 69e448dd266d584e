// The llama-server a worker starts itself for `local:<name>`: one per process, started on first use on a free
// loopback port, started again on the same port when it died (a crash or a kill must not lose the task), and
// stopped with the process (see the owner watch in llama-server.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { stateDir } from '../paths.js';
import { findFreePort, isPortFree } from '../server/ports.js';
import { modelLooksComplete } from './assemble-model.js';
import { serverRuns } from './install.js';
import {
  DEFAULT_LOCAL_MODEL_CTX,
  MAX_LOCAL_MODEL_CTX,
  MIN_LOCAL_MODEL_CTX,
  startLlamaServer,
  type RunningLlamaServer,
} from './llama-server.js';
import { localModelNames, localModelPaths } from './pins.js';

/** The local model cannot be used as named: retrying will not help, the message says what will. */
export class LocalModelUnusable extends Error {
  override name = 'LocalModelUnusable';
}

interface Owned {
  server: Promise<RunningLlamaServer>;
  alive: boolean;
}

let owned: Owned | undefined;
let lastPort: number | undefined;

/** The owned server's base URL, starting it (again) when it is not running. */
export async function ensureOwnedLocalServer(
  name: string,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): Promise<string> {
  const env = options.env ?? process.env;
  if (!(localModelNames as readonly string[]).includes(name))
    throw new LocalModelUnusable(
      `local model '${name}' is not one taskloop installs; use local:${localModelNames.join(' or local:')}, or openai:<model> with OPENAI_BASE_URL for a server you run`,
    );
  if (owned?.alive) return (await owned.server).baseURL;
  localModelCtx(env);
  // Set before the first await: concurrent activities share one start instead of racing for the port.
  const entry: Owned = { server: checkAndStart(name, env, options.log), alive: true };
  owned = entry;
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

async function checkAndStart(
  name: string,
  env: NodeJS.ProcessEnv,
  log: ((line: string) => void) | undefined,
): Promise<RunningLlamaServer> {
  const paths = localModelPaths(env);
  if (!(await serverRuns(paths.serverBinary)) || !(await modelLooksComplete(paths.model)))
    throw new LocalModelUnusable(
      `local:${name} is not installed on this worker's machine (${paths.serverBinary} and ${paths.model}); run taskloop model install (or npm run setup -- --local-model) there`,
    );
  return startOwned(paths, env, log);
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
  paths: ReturnType<typeof localModelPaths>,
  env: NodeJS.ProcessEnv,
  log: ((line: string) => void) | undefined,
): Promise<RunningLlamaServer> {
  // The same port after a restart, so a base URL already handed out keeps working.
  const port = lastPort !== undefined && (await isPortFree(lastPort)) ? lastPort : await findFreePort();
  lastPort = port;
  const logDir = path.join(stateDir(env), 'local-model');
  await mkdir(logDir, { recursive: true });
  const ctx = localModelCtx(env);
  const logFile = path.join(logDir, `llama-server-${process.pid}.log`);
  const server = await startLlamaServer({ binary: paths.serverBinary, model: paths.model, port, ctx, logFile });
  log?.(`local model server started: ${server.baseURL} (pid ${server.pid}, log ${logFile})`);
  return server;
}

/** The running owned server, if any (tests kill it to show a restart). */
export async function ownedLocalServer(): Promise<RunningLlamaServer | undefined> {
  return owned?.alive ? owned.server : undefined;
}

/** Stops the owned server (a worker shutting down; tests). */
export async function stopOwnedLocalServer(): Promise<void> {
  const current = owned;
  owned = undefined;
  if (current?.alive) await (await current.server.catch(() => undefined))?.stop();
}
