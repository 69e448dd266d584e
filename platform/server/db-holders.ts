// Which `temporal server start-dev` processes hold a SQLite file. A second dev server on the file a running one holds
// would fight it over the database, so `taskloop server` refuses and names the one running; `taskloop server stop`
// finds it this way when no pid file records it.
import { execFile } from 'node:child_process';
import { readdir, readFile, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export interface DevServerProcess {
  pid: number;
  /** host:port of its frontend, as its command line gave them (start-dev's defaults otherwise). */
  address: string;
  /** The SQLite file, absolute; undefined for a server in memory. */
  dbFile?: string;
}

/** A dev server's address and database from its arguments; undefined for any other program. */
export function readDevServerArgs(pid: number, argv: string[], cwd = '/'): DevServerProcess | undefined {
  const start = argv.indexOf('start-dev');
  if (start < 1 || argv[start - 1] !== 'server') return undefined;
  const value = (...flags: string[]): string | undefined => {
    for (const flag of flags) {
      const at = argv.indexOf(flag, start);
      if (at >= 0) return argv[at + 1];
      const joined = argv.find((arg) => arg.startsWith(`${flag}=`));
      if (joined) return joined.slice(flag.length + 1);
    }
    return undefined;
  };
  const dbFile = value('--db-filename', '-f');
  const ip = value('--ip') ?? 'localhost';
  const port = value('--port', '-p') ?? '7233';
  return { pid, address: `${ip}:${port}`, dbFile: dbFile === undefined ? undefined : path.resolve(cwd, dbFile) };
}

/** Every running dev server (Linux: /proc; elsewhere `ps`, whose arguments split at spaces). */
export async function listDevServers(): Promise<DevServerProcess[]> {
  const found: DevServerProcess[] = [];
  const pids = await readdir('/proc').catch(() => undefined);
  if (pids) {
    for (const name of pids) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid === process.pid) continue;
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (!cmdline.includes('start-dev')) continue;
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '/');
      const server = readDevServerArgs(pid, cmdline.split('\0').filter(Boolean), cwd);
      if (server) found.push(server);
    }
    return found;
  }
  const { stdout } = await promisify(execFile)('ps', ['-axww', '-o', 'pid=,command=']).catch(() => ({ stdout: '' }));
  for (const line of stdout.split('\n')) {
    const [pid, ...argv] = line.trim().split(/\s+/);
    const server = line.includes('start-dev') ? readDevServerArgs(Number(pid), argv) : undefined;
    if (server) found.push(server);
  }
  return found;
}

/** The running dev servers whose database is `dbFile` (compared after resolving links). */
export async function findDevServersUsing(dbFile: string): Promise<DevServerProcess[]> {
  const real = (file: string) => realpath(file).catch(() => path.resolve(file));
  const wanted = await real(dbFile);
  const servers = await listDevServers();
  const same = await Promise.all(
    servers.map(async (server) => server.dbFile !== undefined && (await real(server.dbFile)) === wanted),
  );
  return servers.filter((_, index) => same[index]);
}
