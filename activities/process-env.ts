// The environment a test run sees: a small allow-list of the worker's own, plus what the task asks for, minus secrets.
import { isSecretEnvName } from '../domain/secrets.js';

/** Names copied from the worker's environment; everything else (tokens, cloud config, proxies) stays out. */
export const inheritedEnvNames = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TERM',
  'USER',
  'SHELL',
  'VIRTUAL_ENV',
  'PYENV_ROOT',
  'PYENV_VERSION',
] as const;

/**
 * Builds the test process environment from `base` (usually the worker's process.env) and `extra` (the task's).
 * Secret-named variables are dropped from both: a secret must never reach the code under test.
 */
export function buildTestEnv(input: {
  base: Record<string, string | undefined>;
  extra: Record<string, string>;
}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of inheritedEnvNames) {
    const value = input.base[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, input.extra);
  for (const name of Object.keys(env)) {
    if (isSecretEnvName(name)) delete env[name];
  }
  // Keep runs from dirtying the worktree with __pycache__ and keep output ordered when the run is killed.
  env.PYTHONDONTWRITEBYTECODE = '1';
  env.PYTHONUNBUFFERED = '1';
  return env;
}

/**
 * The environment inside the bwrap sandbox, built from nothing: a PATH, a home and temp folder on the
 * sandbox's private /tmp, a UTF-8 locale and the task's variables (secret-named ones dropped).
 */
export function buildSandboxEnv(input: {
  pathDirs: string[];
  home: string;
  extra: Record<string, string>;
}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: [...input.pathDirs, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':'),
    HOME: input.home,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
  };
  for (const [name, value] of Object.entries(input.extra)) {
    if (!isSecretEnvName(name)) env[name] = value;
  }
  env.PYTHONDONTWRITEBYTECODE = '1';
  env.PYTHONUNBUFFERED = '1';
  return env;
}
