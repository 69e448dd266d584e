// `taskloop server --production`: the self-hosted stack on this machine, in the foreground until Ctrl-C.
import path from 'node:path';
import { startCluster } from '../../platform/cluster/cluster.js';
import { stateDir } from '../../platform/paths.js';

/** Builds (once per machine) and starts Temporal on PostgreSQL; Ctrl-C stops the server, then PostgreSQL. */
export async function runProductionServer(options: { port: number; dataDir?: string }): Promise<number> {
  const cluster = await startCluster({
    dataDir: path.resolve(options.dataDir ?? path.join(stateDir(), 'cluster')),
    port: options.port,
    log: (line) => console.error(line),
  });
  console.log(
    `Temporal server (PostgreSQL, SQL visibility) serving at ${cluster.address}; metrics at ${cluster.metricsUrl}`,
  );
  if (options.port !== 7233) console.log(`Point taskloop at it with: export TEMPORAL_ADDRESS=${cluster.address}`);
  console.log(`Its data and log are in ${cluster.dataDir}; Ctrl-C stops it (the data stays).`);
  // The server ending on its own (see its log) stops PostgreSQL too, and exits 1.
  const ended = await new Promise<'signal' | 'server'>((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
    void cluster.exited.then(() => resolve('server'));
  });
  await cluster.stop();
  if (ended === 'server') console.error(`The Temporal server stopped on its own; see ${cluster.serverLog}`);
  return ended === 'server' ? 1 : 0;
}
