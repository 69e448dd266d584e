// A PostgreSQL of the cluster's own: initdb into its data folder, started on a free port with pg_ctl, as the
// `postgres` user when this process is root (PostgreSQL refuses to run as root). Installed from Debian when missing.
import { execa } from 'execa';
import { access, chmod, chown, mkdir, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ClusterInstallError } from './install.js';

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
}

const isRoot = () => process.getuid?.() === 0;
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** initdb and pg_ctl: from Debian's versioned folder (newest first), else from PATH; undefined when absent. */
export async function findPostgres(env: NodeJS.ProcessEnv = process.env): Promise<PostgresBinaries | undefined> {
  const debian = '/usr/lib/postgresql';
  const versions = (await readdir(debian).catch(() => [] as string[])).sort((a, b) => Number(b) - Number(a));
  const dirs = [...versions.map((version) => path.join(debian, version, 'bin')), ...(env.PATH ?? '').split(':')];
  for (const dir of dirs.filter(Boolean)) {
    const initdb = path.join(dir, 'initdb');
    const pgCtl = path.join(dir, 'pg_ctl');
    if ((await exists(initdb)) && (await exists(pgCtl))) return { initdb, pgCtl };
  }
  return undefined;
}

/** PostgreSQL's binaries, installed with apt-get when root and missing; otherwise a clear error saying how. */
export async function ensurePostgres(log: (line: string) => void = () => undefined): Promise<PostgresBinaries> {
  const found = await findPostgres();
  if (found) return found;
  if (!isRoot() || !(await exists('/usr/bin/apt-get')))
    throw new ClusterInstallError(
      'PostgreSQL (initdb, pg_ctl) was not found; install it (Debian/Ubuntu: sudo apt-get install -y postgresql) and run again',
    );
  log('PostgreSQL: not found; installing it with apt-get install -y postgresql');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = await execa('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
    env,
    reject: false,
    all: true,
  });
  const after = install.failed ? undefined : await findPostgres();
  if (!after)
    throw new ClusterInstallError(`apt-get install -y postgresql failed:\n${(install.all ?? '').slice(-2000)}`);
  return after;
}

/** Runs a PostgreSQL program as the user it must run as: `postgres` when we are root, else ourselves. */
function asPostgresUser(file: string, args: string[]) {
  return isRoot()
    ? execa('runuser', ['-u', 'postgres', '--', file, ...args], { reject: false, all: true })
    : execa(file, args, { reject: false, all: true });
}

/** The data folder made by initdb (once), owned by the user PostgreSQL runs as, with trust auth on loopback only. */
export async function initPostgres(bin: PostgresBinaries, dir: string): Promise<void> {
  const dataDir = path.join(dir, 'data');
  if (await exists(path.join(dataDir, 'PG_VERSION'))) return;
  await mkdir(dir, { recursive: true });
  if (isRoot()) {
    const { uid, gid } = await postgresIds();
    await chown(dir, uid, gid);
    await chmod(dir, 0o700);
    const reach = await execa('runuser', ['-u', 'postgres', '--', 'test', '-w', dir], { reject: false });
    if (reach.failed)
      throw new ClusterInstallError(
        `the postgres user cannot reach ${dir} (a folder above it is private to root); choose a data folder under a world-traversable one (--data)`,
      );
  }
  const init = await asPostgresUser(bin.initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  if (init.failed) throw new ClusterInstallError(`initdb -D ${dataDir} failed:\n${(init.all ?? '').slice(-2000)}`);
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const uid = await execa('id', ['-u', 'postgres'], { reject: false });
  const gid = await execa('id', ['-g', 'postgres'], { reject: false });
  if (uid.failed || gid.failed)
    throw new ClusterInstallError(
      "running PostgreSQL as root needs the `postgres` user (Debian's postgresql package makes it)",
    );
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/** Starts PostgreSQL on 127.0.0.1:port (its socket in the same folder), waiting until it accepts connections. */
export async function startPostgres(bin: PostgresBinaries, dir: string, port: number): Promise<void> {
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const start = await asPostgresUser(bin.pgCtl, [
    '-D',
    path.join(dir, 'data'),
    '-l',
    path.join(dir, 'postgres.log'),
    '-o',
    options,
    '-w',
    '-t',
    '60',
    'start',
  ]);
  if (start.failed)
    throw new ClusterInstallError(
      `PostgreSQL did not start on port ${port} (${start.all?.trim().split(os.EOL).pop()}); see ${path.join(dir, 'postgres.log')}`,
    );
}

/** Stops it (fast: open transactions roll back; committed data is kept). */
export async function stopPostgres(bin: PostgresBinaries, dir: string): Promise<void> {
  await asPostgresUser(bin.pgCtl, ['-D', path.join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
}
