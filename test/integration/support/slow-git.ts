// A `git` that takes 2 s longer for chosen subcommands, first on a worker's PATH: the crash matrix uses it so that
// the review (git diff) and the commit (git commit), quick since git runs without waits, last long enough for a
// crash to land inside them.
import { execFileSync } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir } from '../../support/git-repo.js';

/** `env` with a PATH whose first folder holds the slowing `git` (the real one is then run with the same arguments). */
export async function withSlowGit(env: NodeJS.ProcessEnv, subcommands: string[]): Promise<NodeJS.ProcessEnv> {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const dir = await makeTempDir();
  const cases = subcommands.map((name) => `${name}) sleep 2; break ;;`).join(' ');
  const script = [
    '#!/bin/sh',
    // The first argument that is a subcommand decides (the -c settings before it never match one).
    `for arg in "$@"; do case "$arg" in ${cases} esac; done`,
    `exec ${realGit} "$@"`,
    '',
  ].join('\n');
  await writeFile(path.join(dir, 'git'), script);
  await chmod(path.join(dir, 'git'), 0o755);
  return { ...env, PATH: `${dir}${path.delimiter}${env.PATH ?? process.env.PATH ?? ''}` };
}
