import { spawn } from 'node:child_process';

/** A process id that just ended (its process has been reaped): a dead owner for names that carry one. */
export async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid ?? 0;
}
