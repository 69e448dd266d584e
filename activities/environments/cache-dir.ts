// Where built environments live: one folder per key under the worker's work folder (`<work>/environments`), or a
// shared path when TASKLOOP_ENV_CACHE sets one; each holds the environment (`env/`) and its manifest.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readSmallFile } from '../small-files.js';
import { setupFailure } from './plan.js';

export const MANIFEST_NAME = 'manifest.json';

/** What was built, from what, and how long it took: written once, beside the environment it describes. */
export interface EnvironmentManifest {
  key: string;
  /** The folder's name: the repository's name and the key. */
  name: string;
  repo: string;
  /** The commit whose dependency files were read (the first one with this key). */
  baseSha: string;
  setup: string[];
  /** Dependency file → its blob id at the base (`absent` for a named file the commit lacks). */
  files: Record<string, string>;
  interpreter: { path: string; version: string };
  installer: string;
  /** `uv pip freeze` of the built environment. */
  packages: string[];
  setupMs: number;
  builtAt: string;
  hostId: string;
}

/** The cache folder: TASKLOOP_ENV_CACHE (absolute) or `<workDir>/environments`. */
export function environmentCacheDir(workDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const shared = env.TASKLOOP_ENV_CACHE;
  if (shared !== undefined && shared !== '') {
    if (!path.isAbsolute(shared)) {
      // A setting of the worker: the task fails as an environment problem naming it, never as the change's fault.
      throw setupFailure(`TASKLOOP_ENV_CACHE=${JSON.stringify(shared)} must be an absolute folder path`);
    }
    return shared;
  }
  return path.join(workDir, 'environments');
}

/** The environment inside an entry's folder: the path its interpreter and scripts are found under. */
export const envDirOf = (entryDir: string) => path.join(entryDir, 'env');

export function readManifest(entryDir: string): EnvironmentManifest | undefined {
  const text = readSmallFile(path.join(entryDir, MANIFEST_NAME));
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as EnvironmentManifest;
  } catch {
    return undefined;
  }
}

/** Every built environment in the cache (a folder still being built, or a broken one, is left out). */
export function listEnvironments(cacheDir: string): EnvironmentManifest[] {
  if (!existsSync(cacheDir)) return [];
  return readdirSync(cacheDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => readManifest(path.join(cacheDir, entry.name)))
    .filter((manifest): manifest is EnvironmentManifest => manifest !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
}
