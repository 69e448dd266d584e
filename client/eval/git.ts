// git for the eval CLI: hooks and every setting that runs a program off, never a password prompt.
import { execa } from 'execa';

const safe = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'protocol.ext.allow=never'];

/** Runs git in `dir`; undefined when git fails (the caller words the problem). */
export async function git(dir: string, args: string[]): Promise<string | undefined> {
  const result = await execa('git', [...safe, '-C', dir, ...args], {
    reject: false,
    env: { GIT_TERMINAL_PROMPT: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return result.failed ? undefined : result.stdout;
}
