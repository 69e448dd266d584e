// The pid of the detached dev server, kept under .taskloop/ so `taskloop server stop` can end it later. A pid file can
// be stale or missing (a server started another way, a pid reused): stop ends only a running dev server, the one
// recorded or else the one on the folder's database.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stateDir } from '../paths.js';
import { listDevServers, findDevServersUsing, type DevServerProcess } from './db-holders.js';

const pidFile = () => path.join(stateDir(), 'server.pid');

export async function recordServerPid(pid: number | undefined): Promise<void> {
  if (pid !== undefined) await writeFile(pidFile(), `${pid}\n`);
}

/** Stops the recorded dev server, else the one serving `dbFile`; returns the one sent SIGTERM, or undefined. */
export async function stopLocalServer(dbFile: string): Promise<DevServerProcess | undefined> {
  const text = await readFile(pidFile(), 'utf8').catch(() => undefined);
  const recorded = Number(text?.trim());
  const running = await listDevServers();
  const server = running.find((candidate) => candidate.pid === recorded) ?? (await findDevServersUsing(dbFile)).at(0);
  await rm(pidFile(), { force: true });
  if (!server) return undefined;
  try {
    process.kill(server.pid, 'SIGTERM');
    return server;
  } catch {
    return undefined;
  }
}
