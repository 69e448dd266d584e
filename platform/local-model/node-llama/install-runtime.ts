// Installs node-llama-cpp into the model cache with npm (`taskloop model install`), not among taskloop's own
// packages: every `npm ci` would otherwise fetch it. Only this platform's CPU binary package comes (optional
// packages omitted), and no install script runs, so nothing is compiled and nothing is downloaded from outside the
// npm registry. Installed into a fresh folder and renamed into place, so a half-finished install never counts.
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { LocalModelInstallError } from '../build-tools.js';
import { binaryPackageFor, NODE_LLAMA_CPP_VERSION, nodeLlamaRuntimeDir } from './runtime-pins.js';

async function versionOf(dir: string, name: string): Promise<string | undefined> {
  const text = await readFile(path.join(dir, 'node_modules', name, 'package.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  return (JSON.parse(text) as { version?: string }).version;
}

/** True when the runtime folder holds the pinned node-llama-cpp and this platform's binary package. */
export async function nodeLlamaRuntimeInstalled(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const dir = nodeLlamaRuntimeDir(env);
  const binary = binaryPackageFor();
  if (binary === undefined) return false;
  return (
    (await versionOf(dir, 'node-llama-cpp')) === NODE_LLAMA_CPP_VERSION &&
    (await versionOf(dir, binary)) === NODE_LLAMA_CPP_VERSION
  );
}

/** Installs the runtime unless it is there; `log` gets a line per step. */
export async function installNodeLlamaRuntime(
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const dir = nodeLlamaRuntimeDir(env);
  if (await nodeLlamaRuntimeInstalled(env)) {
    log(`runtime: node-llama-cpp ${NODE_LLAMA_CPP_VERSION} cached at ${dir}`);
    return dir;
  }
  const binary = binaryPackageFor();
  if (binary === undefined)
    throw new LocalModelInstallError(
      `node-llama-cpp publishes no prebuilt binary for ${process.platform}-${process.arch}; use the llama-server runtime instead: taskloop model install --runtime llama-server`,
    );
  const work = await mkdtemp(path.join(path.dirname(dir), '.runtime-'));
  try {
    const dependencies = { 'node-llama-cpp': NODE_LLAMA_CPP_VERSION, [binary]: NODE_LLAMA_CPP_VERSION };
    await writeFile(
      path.join(work, 'package.json'),
      `${JSON.stringify({ name: 'taskloop-local-runtime', private: true, dependencies }, null, 2)}\n`,
    );
    log(`runtime: npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION} ${binary} (prebuilt CPU binary, no build)`);
    const npm = env.TASKLOOP_NPM ?? 'npm';
    const args = ['install', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', work];
    const result = await execa(npm, args, {
      cwd: work,
      reject: false,
      all: true,
      // Belt and braces with --ignore-scripts: node-llama-cpp's postinstall would fetch llama.cpp from GitHub.
      env: { ...env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' },
    });
    if (result.failed)
      throw new LocalModelInstallError(
        `npm install of node-llama-cpp@${NODE_LLAMA_CPP_VERSION} failed (${result.shortMessage}): ${String(result.all).slice(-2000)}`,
      );
    await rm(dir, { recursive: true, force: true });
    await rename(work, dir);
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    if (error instanceof LocalModelInstallError) throw error;
    throw new LocalModelInstallError(`installing node-llama-cpp into ${dir} failed: ${String(error)}`);
  }
  if (!(await nodeLlamaRuntimeInstalled(env)))
    throw new LocalModelInstallError(
      `${dir} lacks node-llama-cpp or ${binary} after npm install; delete it and run taskloop model install again`,
    );
  log(`runtime: node-llama-cpp ${NODE_LLAMA_CPP_VERSION} installed at ${dir}`);
  return dir;
}
