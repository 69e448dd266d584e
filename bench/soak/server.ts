// The soak's Temporal server: the dev server on a SQLite file (so a restart keeps its state) or the self-hosted
// cluster; restartable once mid-run; its CPU counted across the restart.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startCluster } from '../../platform/cluster/cluster.js';
import { startDevServer, type RunningDevServer } from '../../platform/server/dev-server.js';
import { findFreePort } from '../../platform/server/ports.js';
import { ensureTemporalCli } from '../../platform/server/temporal-cli.js';
import { processTreeCpuMs } from '../lib/worker-process.js';

export type SoakServerKind = 'dev' | 'cluster';

export interface SoakServer {
  kind: SoakServerKind;
  address: string;
  restart(): Promise<void>;
  /** CPU of the server (and, for the cluster, of PostgreSQL) since it started, restarts included, in ms. */
  cpuMs(): Promise<{ server: number; postgres?: number }>;
  stop(): Promise<void>;
}

export async function startSoakServer(
  kind: SoakServerKind,
  dir: string,
  log: (line: string) => void,
): Promise<SoakServer> {
  return kind === 'cluster' ? startSoakCluster(dir, log) : startSoakDevServer(dir, log);
}

async function startSoakDevServer(dir: string, log: (line: string) => void): Promise<SoakServer> {
  const cliPath = await ensureTemporalCli({ log });
  const port = await findFreePort();
  const start = () =>
    startDevServer({
      cliPath,
      port,
      headless: true,
      dbFile: path.join(dir, 'temporal.db'),
      logFile: path.join(dir, 'server.log'),
    });
  let server: RunningDevServer = await start();
  let before = 0;
  return {
    kind: 'dev',
    address: server.address,
    async restart() {
      before += await processTreeCpuMs(server.pid ?? -1);
      await server.stop();
      server = await start();
    },
    async cpuMs() {
      return { server: before + (await processTreeCpuMs(server.pid ?? -1)) };
    },
    stop: () => server.stop(),
  };
}

async function startSoakCluster(dir: string, log: (line: string) => void): Promise<SoakServer> {
  const cluster = await startCluster({ dataDir: path.join(dir, 'cluster'), log });
  const postmaster = async () =>
    Number((await readFile(path.join(cluster.dataDir, 'postgres', 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  let before = 0;
  return {
    kind: 'cluster',
    address: cluster.address,
    async restart() {
      before += await processTreeCpuMs(cluster.serverPid() ?? -1);
      await cluster.restartServer();
    },
    async cpuMs() {
      return {
        server: before + (await processTreeCpuMs(cluster.serverPid() ?? -1)),
        postgres: await processTreeCpuMs(await postmaster()),
      };
    },
    stop: () => cluster.stop(),
  };
}
