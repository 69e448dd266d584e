// Makes sure the local dev server is up for the demo: attaches to a running one, or starts one in the background.
import { recordServerPid } from './server/pid-file.js';
import path from 'node:path';
import { isTemporalServing, startDevServer } from './server/dev-server.js';
import { ensureTemporalCli } from './server/temporal-cli.js';
import { stateDir } from './paths.js';
import { resolveTemporalTarget } from './connection.js';

export async function ensureLocalServer(log: (line: string) => void): Promise<{ address: string; uiUrl?: string }> {
  const target = resolveTemporalTarget();
  if (await isTemporalServing(target.address)) {
    log(`Temporal is serving at ${target.address}`);
    return { address: target.address, uiUrl: process.env.TEMPORAL_UI_URL };
  }
  const [ip, portText] = target.address.split(':');
  if (!['127.0.0.1', 'localhost'].includes(ip ?? '')) {
    throw new Error(
      `cannot reach Temporal at ${target.address}; the demo only starts a local server, so unset TEMPORAL_ADDRESS or start that server`,
    );
  }
  const port = Number(portText ?? 7233);
  const home = stateDir();
  const server = await startDevServer({
    cliPath: await ensureTemporalCli({ log }),
    ip: '127.0.0.1',
    port,
    uiPort: port + 1000,
    dbFile: path.join(home, 'temporal.db'),
    detached: true,
    logFile: path.join(home, 'server.log'),
  });
  await recordServerPid(server.pid);
  log(
    `Started the Temporal dev server at ${server.address} (pid ${server.pid}, state in ${home}/temporal.db); it keeps running after the demo (taskloop server stop ends it).`,
  );
  return { address: server.address, uiUrl: server.uiUrl };
}
