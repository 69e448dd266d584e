// Runs the real `taskloop` binary as a child process, as a user would.
import { execa, type ResultPromise } from 'execa';
import path from 'node:path';
import { projectRoot } from '../../platform/paths.js';

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

/**
 * A long-running `taskloop` command (server, worker) as a child process, resolved once its output shows
 * `readyText`. Wrapped in an object because the child is a thenable that would otherwise be awaited to its end.
 */
export async function startTaskloop(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; readyText: string },
): Promise<{ child: ResultPromise; output: string }> {
  const child = execa('node', [taskloopBin, ...args], { env: options.env, all: true, reject: false });
  const output = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(options.readyText)) resolve(output);
    });
    void child.then(() =>
      reject(new Error(`taskloop ${args.join(' ')} exited before "${options.readyText}":\n${output}`)),
    );
  });
  return { child, output };
}

/** `taskloop worker` in its own process, ready once it says what it serves. */
export const startWorkerProcess = (env: NodeJS.ProcessEnv) =>
  startTaskloop(['worker', '--grace', '1s'], { env, readyText: 'serving task queues' });

/** Kills a worker process the hard way (SIGKILL: no graceful shutdown) and starts a fresh one with the same host. */
export async function crashAndRestartWorker(
  child: ResultPromise,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ResultPromise }> {
  child.kill('SIGKILL');
  await child.catch(() => undefined);
  return startWorkerProcess(env);
}
