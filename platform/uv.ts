// Finds `uv` (Astral's Python package installer), which builds repositories' environments: $TASKLOOP_UV, else the
// pinned PyPI wheel in .taskloop/tools, installed there when missing (as the Temporal CLI is). uv over pip + venv:
// attrs with its test group took 3.4 s against pip's 26 s (docs/environments.md).
import path from 'node:path';
import { projectRoot } from './paths.js';
import { installPinnedWheel, wheelBinary, type PinnedWheel } from './server/pinned-wheel.js';
import { isExecutable, toolsDir } from './server/temporal-cli.js';

/** The pinned version of the PyPI wheel `uv`. */
export const UV_VERSION = '0.13.9';

const wheel: PinnedWheel = { name: 'uv', version: UV_VERSION, binary: path.join('bin', 'uv') };

export class UvMissing extends Error {
  override name = 'UvMissing';
  constructor(detail: string) {
    super(
      `uv was not found and could not be installed (${detail}): run \`npm run setup\` again, or ` +
        `\`pip install uv==${UV_VERSION}\` and point TASKLOOP_UV at its \`uv\` binary`,
    );
  }
}

/** $TASKLOOP_UV, then the tools folder; undefined when neither is there. */
export async function findUv(options: { env?: NodeJS.ProcessEnv; root?: string } = {}): Promise<string | undefined> {
  const env = options.env ?? process.env;
  if (env.TASKLOOP_UV) {
    if (await isExecutable(env.TASKLOOP_UV)) return env.TASKLOOP_UV;
    throw new UvMissing(`TASKLOOP_UV=${env.TASKLOOP_UV} is not an executable file; fix or unset it`);
  }
  const local = wheelBinary(toolsDir(options.root ?? projectRoot), wheel);
  return (await isExecutable(local)) ? local : undefined;
}

/** A usable uv, installing the pinned wheel into the tools folder when none is found. */
export async function ensureUv(options: { env?: NodeJS.ProcessEnv; root?: string } = {}): Promise<string> {
  const found = await findUv(options);
  if (found) return found;
  return installPinnedWheel(wheel, {
    toolsDir: toolsDir(options.root ?? projectRoot),
    python: (options.env ?? process.env).TASKLOOP_PYTHON,
    missing: (detail) => new UvMissing(detail),
  });
}
