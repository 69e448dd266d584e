// Where the worker's Python lives, so a sandbox that hides the home folder can still show it (read-only).
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';

export interface PythonPaths {
  /** Folders to bind read-only: prefixes and import paths of the worker's python3. */
  readOnly: string[];
  /** Folders holding python3 (the venv's and the real one), put first on the sandbox's PATH. */
  binDirs: string[];
}

const probeScript = 'import sys, json; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, sys.path]))';
const cache = new Map<string, Promise<PythonPaths>>();

/** Asks the worker's python3 (as found on PATH) where it lives; cached per PATH. Empty when there is no python3. */
export function findPythonPaths(env: NodeJS.ProcessEnv = process.env): Promise<PythonPaths> {
  const key = `${env.TASKLOOP_PYTHON ?? 'python3'}|${env.PATH ?? ''}`;
  let found = cache.get(key);
  if (!found) {
    found = probe(env);
    cache.set(key, found);
  }
  return found;
}

async function probe(env: NodeJS.ProcessEnv): Promise<PythonPaths> {
  const result = await execa(env.TASKLOOP_PYTHON ?? 'python3', ['-I', '-c', probeScript], {
    reject: false,
    env,
    extendEnv: false,
    cwd: '/',
  });
  if (result.exitCode !== 0) return { readOnly: [], binDirs: [] };
  const [executable, prefix, basePrefix, sysPath] = JSON.parse(String(result.stdout)) as [
    string,
    string,
    string,
    string[],
  ];
  const real = safeRealpath(executable);
  const readOnly = [prefix, basePrefix, ...sysPath, path.dirname(real)].filter(
    (entry) => entry && path.isAbsolute(entry) && existsSync(entry),
  );
  return {
    readOnly: [...new Set(readOnly.map(safeRealpath))],
    binDirs: [...new Set([path.dirname(executable), path.dirname(real)])],
  };
}

function safeRealpath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
