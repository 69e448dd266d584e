// The plain baseline's git: one process per command through execFile (no simple-git, no waits of its own).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const identity = [
  '-c',
  'user.name=taskloop',
  '-c',
  'user.email=taskloop@localhost',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'core.hooksPath=/dev/null',
];

/** Runs `git args` in `cwd`; rejects with git's stderr on a non-zero exit. */
export async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', [...identity, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** A repository on branch `main` with one commit of everything already in `dir`. */
export async function commitFolder(dir: string): Promise<void> {
  await git(dir, ['init', '-q', '-b', 'main']);
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'initial']);
}
