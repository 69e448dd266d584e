// Runs the real `taskloop` binary as a child process, as a user would.
import { execa } from 'execa';
import path from 'node:path';
import { projectRoot } from '../../client/paths.js';

export const taskloopBin = path.join(projectRoot, 'bin', 'taskloop.js');

export function runTaskloop(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {}) {
  return execa('node', [taskloopBin, ...args], {
    reject: false,
    all: true,
    timeout: options.timeout ?? 120_000,
    env: options.env,
    cwd: options.cwd,
  });
}
