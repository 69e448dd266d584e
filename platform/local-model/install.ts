// `taskloop model install`: the llama-server binary and the Gemma model in the per-machine cache, built or assembled
// only when missing (idempotent), each checked before it counts.
import { access, constants, mkdir, rm } from 'node:fs/promises';
import { execa } from 'execa';
import { assembleModel, modelLooksComplete } from './assemble-model.js';
import { buildLlamaServer } from './build-server.js';
import { checkBuildTools, LocalModelInstallError } from './build-tools.js';
import { sha256File } from './fetch.js';
import { gemmaModel, localModelPaths, type LocalModelPaths } from './pins.js';

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

export async function installLocalModel(
  options: { log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {},
): Promise<LocalModelPaths> {
  const log = options.log ?? (() => undefined);
  const env = options.env ?? process.env;
  const paths = localModelPaths(env);
  await mkdir(paths.cacheDir, { recursive: true });

  const haveServer = await serverRuns(paths.serverBinary);
  let haveModel = await modelLooksComplete(paths.model);
  if (haveModel && (await sha256File(paths.model)) !== gemmaModel.sha256) {
    log(`model: ${paths.model} has the right size but not the recorded sha256; assembling it again`);
    await rm(paths.model, { force: true });
    haveModel = false;
  }
  if (!haveServer || !haveModel) await checkBuildTools({ build: !haveServer }, env);

  if (haveServer) log(`server: cached at ${paths.serverBinary}`);
  else await buildLlamaServer(paths, log, env);
  if (!(await serverRuns(paths.serverBinary)))
    throw new LocalModelInstallError(
      `the built ${paths.serverBinary} does not run (--version fails); delete ${paths.serverDir} and run taskloop model install again`,
    );

  if (haveModel) log(`model: cached at ${paths.model} (sha256 checked)`);
  else await assembleModel(paths.model, log, env);
  return paths;
}
