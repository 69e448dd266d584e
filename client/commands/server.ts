// `taskloop server`: the local Temporal dev server with taskloop's search attributes and a durable SQLite file.
import path from 'node:path';
import { intFlag, parseFlags } from '../args.js';
import { stateDir } from '../../platform/paths.js';
import { startDevServer, type RunningDevServer } from '../../platform/server/dev-server.js';
import { splitAddress } from '../../platform/probe-address.js';
import { recordServerPid, stopLocalServer } from '../../platform/server/pid-file.js';
import { ensureTemporalCli } from '../../platform/server/temporal-cli.js';
import { UsageError, WorkFailed } from '../cli-errors.js';
import { printActionJson } from '../output/action-json.js';
import type { Command } from './command.js';
import { runProductionServer } from './server-production.js';

const help = `Usage: taskloop server [--port 7233] [--ui-port 8233] [--ip 127.0.0.1] [--headless] [--db FILE | --memory] [--detach [--json]]
       taskloop server --production [--port 7233] [--data DIR]
       taskloop server stop [--db FILE]

Starts \`temporal server start-dev\` with the search attributes TaskId, Project, Phase, TaskStatus, FailureClass,
Attempt and FailurePattern, keeping its state in a SQLite file (WAL) under .taskloop/ so runs survive a restart. Says so and exits 0
when a Temporal server already answers on that address; refuses a database another dev server holds, naming it.
Without --ip and --port it serves where TEMPORAL_ADDRESS points, when that is this machine. Runs in the foreground
until Ctrl-C unless --detach.

  --port N       gRPC port (default 7233)          --ui-port N   Web UI port (default 8233)
  --ip ADDR      address to bind (default 127.0.0.1)
  --headless     no Web UI                         --memory      keep nothing on disk
  --db FILE      SQLite file (default .taskloop/temporal.db)
  --detach       leave the server running in the background (log: .taskloop/server.log)
  --json         with --detach: stdout gets {"command", "asked", "happened", "ids", "details"}, happened
                 \`started\` or \`already-serving\`, ids the address, details the pid, Web UI, db and log

--production starts the self-hosted stack instead: the Temporal server built from Go modules (once per machine, into
~/.cache/taskloop/cluster; needs Go), on a PostgreSQL of its own (installed from Debian when root and missing) with
SQL visibility, the namespace and the search attributes; its data in --data (default .taskloop/cluster). In the
foreground: Ctrl-C stops the server, then PostgreSQL. See docs/deploying.md.

\`taskloop server stop\` stops the server that --detach (or \`taskloop demo\`) left running, or else the dev server
on the database (default .taskloop/temporal.db); its state stays in the db file.`;

export const serverCommand: Command = {
  summary: 'start the local Temporal dev server (Web UI on :8233)',
  help,
  async run(argv) {
    if (argv[0] === 'stop') return stopServer(argv.slice(1));
    const { values } = parseFlags('server', argv, {
      port: { type: 'string' },
      'ui-port': { type: 'string' },
      ip: { type: 'string' },
      headless: { type: 'boolean' },
      db: { type: 'string' },
      memory: { type: 'boolean' },
      detach: { type: 'boolean' },
      json: { type: 'boolean' },
      production: { type: 'boolean' },
      data: { type: 'string' },
    });
    const fromEnv = values.port === undefined && values.ip === undefined ? localAddressFromEnv() : undefined;
    const port = fromEnv?.port ?? intFlag('server', 'port', values.port, 7233, 1, 65535);
    if (values.production) return runProductionServer({ port, dataDir: values.data });
    if (values.data !== undefined)
      throw new UsageError('taskloop server: --data goes with --production; the dev server takes --db');
    if (values.json && !values.detach)
      throw new UsageError(
        'taskloop server: --json goes with --detach (a server in the foreground prints its log); add --detach',
      );
    const uiPort = intFlag('server', 'ui-port', values['ui-port'], port + 1000, 1, 65535);
    const home = stateDir();
    const cliPath = await ensureTemporalCli({ log: (line) => console.error(line) });
    const dbFile = values.memory ? undefined : path.resolve(values.db ?? path.join(home, 'temporal.db'));
    const logFile = values.detach ? path.join(home, 'server.log') : undefined;
    const server = await startDevServer({
      cliPath,
      ip: fromEnv?.ip ?? values.ip ?? '127.0.0.1',
      port,
      uiPort,
      headless: values.headless ?? false,
      dbFile,
      detached: values.detach ?? false,
      logFile,
    });
    if (values.detach || !server.started)
      return reportDetached(server, { json: values.json ?? false, dbFile, logFile });
    announce(server);
    const stop = () => void server.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await server.exited;
    return 0;
  },
};

/** What a detached start (or a server already serving) did, as sentences or as the acting commands' JSON. */
async function reportDetached(
  server: RunningDevServer,
  options: { json: boolean; dbFile: string | undefined; logFile: string | undefined },
): Promise<number> {
  if (server.started) await recordServerPid(server.pid);
  if (options.json) {
    printActionJson({
      command: 'server --detach',
      asked: { address: server.address, db: options.dbFile ?? null },
      happened: server.started ? 'started' : 'already-serving',
      ids: [server.address],
      details: server.started
        ? { pid: server.pid, uiUrl: server.uiUrl ?? null, db: options.dbFile ?? null, log: options.logFile }
        : undefined,
    });
    return 0;
  }
  if (!server.started) {
    console.log(`Temporal is already serving at ${server.address}; nothing to start.`);
    return 0;
  }
  announce(server);
  console.log(`Running in the background (pid ${server.pid}); stop it with: taskloop server stop`);
  return 0;
}

function announce(server: RunningDevServer): void {
  console.log(`Temporal dev server serving at ${server.address}${server.uiUrl ? `, Web UI at ${server.uiUrl}` : ''}`);
  if (!server.address.endsWith(':7233'))
    console.log(`Point taskloop at it with: export TEMPORAL_ADDRESS=${server.address}`);
}

/** Where TEMPORAL_ADDRESS points when that is this machine; a remote one is refused (this starts a local server). */
function localAddressFromEnv(env = process.env): { ip: string; port: number } | undefined {
  const address = env.TEMPORAL_ADDRESS?.trim();
  if (!address) return undefined;
  const parts = splitAddress(address);
  const local = parts && /^(127\.\d+\.\d+\.\d+|localhost|0\.0\.0\.0|::1)$/.test(parts.host);
  if (!parts || !local)
    throw new UsageError(
      `taskloop server: TEMPORAL_ADDRESS=${address} is not host:port on this machine, and this starts a local server; unset it, or pass --ip and --port`,
    );
  return { ip: parts.host === 'localhost' ? '127.0.0.1' : parts.host, port: parts.port };
}

async function stopServer(argv: string[]): Promise<number> {
  const { values } = parseFlags('server stop', argv, { db: { type: 'string' } });
  const dbFile = path.resolve(values.db ?? path.join(stateDir(), 'temporal.db'));
  const server = await stopLocalServer(dbFile);
  if (server === undefined)
    throw new WorkFailed(
      `taskloop server stop: no Temporal dev server runs on ${dbFile}, and none is recorded in ${path.join(stateDir(), 'server.pid')}`,
    );
  console.log(
    `Stopped the Temporal dev server at ${server.address} (pid ${server.pid})${server.dbFile ? `; its state stays in ${server.dbFile}` : ''}`,
  );
  return 0;
}
