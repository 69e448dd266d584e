// The pid of the detached dev server, kept under .taskloop/ so `taskloop server stop` can end it later.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stateDir } from '../paths.js';

const pidFile = () => path.join(stateDir(), 'server.pid');

export async function recordServerPid(pid: number | undefined): Promise<void> {
  if (pid !== undefined) await writeFile(pidFile(), `${pid}\n`);
}

/** Stops the recorded detached server: the pid it sent SIGTERM to, or undefined when none is recorded or running. */
export async function stopRecordedServer(): Promise<number | undefined> {
  const text = await readFile(pidFile(), 'utf8').catch(() => undefined);
  const pid = Number(text?.trim());
  await rm(pidFile(), { force: true });
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 'SIGTERM');
    return pid;
  } catch {
    return undefined;
  }
}
