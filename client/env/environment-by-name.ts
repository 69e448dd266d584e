// `taskloop run --environment NAME`: the recipe of an environment built on this machine (`taskloop env list`), so the
// task's tests run in that environment (the worker finds it by the same key) or, when the repository's dependency
// files changed since, in one built the same way.
import { UsageError } from '../cli-errors.js';
import type { EnvironmentSpec } from '../../domain/environment.js';

/** The machine's environment cache: the one `taskloop env` and the local worker use. */
export async function localEnvironmentCacheDir(command: string): Promise<string> {
  const { resolveHost } = await import('../../workers/host.js');
  const { environmentCacheDir } = await import('../../activities/environments/index.js');
  try {
    return environmentCacheDir(resolveHost(process.env).workDir);
  } catch (error) {
    throw new UsageError(`taskloop ${command}: ${(error as Error).message}`);
  }
}

/**
 * `auto` stays `auto`; a name becomes the set-up, dependency files and interpreter that environment was built from.
 * An unknown name, or one built for another repository, is a usage error that says what to pass.
 */
export async function resolveEnvironmentName(
  value: string,
  repo: string,
  origin: string,
  cacheDir: string,
): Promise<EnvironmentSpec> {
  if (value === 'auto') return 'auto';
  const { listEnvironments, repoIdentity } = await import('../../activities/environments/index.js');
  const built = listEnvironments(cacheDir);
  const manifest = built.find((entry) => entry.name === value);
  if (!manifest)
    throw new UsageError(
      `taskloop run: ${origin} (environment): no environment ${JSON.stringify(value)} on this machine (${cacheDir}); ` +
        `pass auto to build one from the repository's dependency files, or a name that taskloop env list shows` +
        (built.length === 0 ? ' (none built yet: taskloop env build REPO)' : ''),
    );
  if (manifest.repo !== repoIdentity(repo))
    throw new UsageError(
      `taskloop run: ${origin} (environment): ${value} was built for ${manifest.repo}, not ${repoIdentity(repo)}; ` +
        `pass auto, or build one for this repository with taskloop env build ${repo}`,
    );
  const files = Object.keys(manifest.files);
  return {
    setup: manifest.setup,
    python: manifest.interpreter.path,
    ...(files.length > 0 ? { files } : {}),
  };
}
