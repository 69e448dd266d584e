// The interpreter an environment is made from. A task names it (`environment.python`), and a task is not trusted to
// name a host program: the value is resolved against the worker's own interpreters only (TASKLOOP_PYTHON, and the
// `python`, `python3`, `python3.N` programs on the worker's PATH), and what runs on the host is that interpreter's
// real file, never the path as written (a virtual environment's `bin/python` links to a system interpreter but loads
// the environment's own packages, whose `.pth` files run code). A path under the work folder, the environment cache
// or the state folder is refused whatever it links to: set-up writes there.
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { isPythonName } from '../../domain/environment.js';
import { stateDir } from '../../platform/paths.js';
import { findProgram } from '../sandbox/find-program.js';
import { setupFailure } from './setup-failure.js';

const probeScript = 'import sys, json; print(json.dumps([sys.executable, sys.version.split()[0]]))';

const realOrUndefined = (file: string) => {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
};

const isInside = (child: string, parent: string) => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** Folders whose programs are never run as an interpreter: what set-up and repository code write. */
export function forbiddenRoots(cacheDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const state = stateDir(env);
  return [cacheDir, state, path.resolve(env.TASKLOOP_WORK_DIR ?? path.join(state, 'work'))].flatMap((dir) => [
    path.resolve(dir),
    ...[realOrUndefined(dir)].filter((real): real is string => !!real),
  ]);
}

/** The worker's interpreters as real paths: TASKLOOP_PYTHON and every python name on its PATH. */
export function allowedInterpreters(env: NodeJS.ProcessEnv, forbidden: string[]): Map<string, string> {
  const allowed = new Map<string, string>();
  const add = (file: string) => {
    const real = realOrUndefined(file);
    if (!real || forbidden.some((root) => isInside(file, root) || isInside(real, root))) return;
    if (findProgram(real, '', '/').found && !allowed.has(real)) allowed.set(real, file);
  };
  const dirs = (env.PATH ?? '').split(':').filter((dir) => path.isAbsolute(dir));
  if (env.TASKLOOP_PYTHON)
    add(path.isAbsolute(env.TASKLOOP_PYTHON) ? env.TASKLOOP_PYTHON : lookUp(env.TASKLOOP_PYTHON, dirs));
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter(isPythonName);
    } catch {
      continue;
    }
    for (const name of names) add(path.join(dir, name));
  }
  return allowed;
}

const lookUp = (name: string, dirs: string[]) =>
  dirs.map((dir) => path.join(dir, name)).find((file) => findProgram(file, '', '/').found) ?? name;

/** The interpreter's real path and version; refuses (EnvironmentSetupFailed) what is not the worker's own. */
export async function resolveInterpreter(
  value: string,
  input: { field: string; cacheDir: string; env?: NodeJS.ProcessEnv },
): Promise<{ path: string; version: string }> {
  const env = input.env ?? process.env;
  const forbidden = forbiddenRoots(input.cacheDir, env);
  const dirs = (env.PATH ?? '').split(':').filter((dir) => path.isAbsolute(dir));
  const file = value.includes('/') ? path.resolve(value) : lookUp(value, dirs);
  const real = realOrUndefined(file);
  const allowed = allowedInterpreters(env, forbidden);
  const named = `${input.field} ${JSON.stringify(value)}`;
  if (forbidden.some((root) => isInside(file, root) || (real !== undefined && isInside(real, root)))) {
    throw setupFailure(
      `${named} lies in taskloop's work folder, environment cache or state folder, which repository code writes: ` +
        'name one of the worker’s interpreters (python3, python3.12 on its PATH, or its TASKLOOP_PYTHON), or leave the field out',
    );
  }
  if (real === undefined || !allowed.has(real)) {
    const known = [...allowed.values()].slice(0, 8).join(', ') || 'none found';
    throw setupFailure(
      `${named} is not one of this worker's interpreters (${known}): name one of them (a python name on the ` +
        'worker’s PATH or its TASKLOOP_PYTHON), or leave the field out for the worker’s python3',
    );
  }
  const result = await execa(real, ['-I', '-c', probeScript], { reject: false, cwd: '/' });
  if (result.exitCode !== 0) {
    throw setupFailure(
      `${named} could not be run on this worker (${result.code ?? `exit ${result.exitCode}`}): name an installed ` +
        'interpreter, or leave the field out for the worker’s python3',
    );
  }
  const [executable, version] = JSON.parse(String(result.stdout)) as [string, string];
  return { path: realpathSync(executable), version };
}
