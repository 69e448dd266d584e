// Where a built environment (activities/environments) appears inside the sandbox. One fixed path for every run: a
// virtual environment is not relocatable (its scripts name its interpreter by absolute path), so it is built at this
// path and later shown at the same one, wherever the cache keeps it on the host.
import path from 'node:path';
import type { SandboxMount } from './bwrap-args.js';
import { findPythonPaths, type PythonPaths } from './python-paths.js';

export const ENV_MOUNT = '/taskloop/env';

export interface SandboxEnvironment {
  /** The environment's folder on the host. */
  hostDir: string;
  /** The host interpreter it was made from: its prefix is shown read-only beside it. */
  interpreter: string;
  /** Only while set-up builds it; every test run sees it read-only. */
  writable?: boolean;
}

export interface EnvironmentView {
  mount: SandboxMount;
  /** First on the sandbox's PATH. */
  binDir: string;
  /** The interpreter's own folders, shown read-only. */
  python: PythonPaths;
  variables: Record<string, string>;
  /** The sandbox's PATH as the host sees it, to find the program before the run starts. */
  hostPath: (sandboxPath: string) => string;
}

export async function viewEnvironment(environment: SandboxEnvironment): Promise<EnvironmentView> {
  const python = await findPythonPaths({ ...process.env, TASKLOOP_PYTHON: environment.interpreter });
  const binDir = path.join(ENV_MOUNT, 'bin');
  return {
    mount: { source: environment.hostDir, dest: ENV_MOUNT, writable: environment.writable === true },
    binDir,
    python,
    variables: { VIRTUAL_ENV: ENV_MOUNT },
    hostPath: (sandboxPath) =>
      sandboxPath
        .split(':')
        .map((dir) => (dir === binDir ? path.join(environment.hostDir, 'bin') : dir))
        .join(':'),
  };
}
