// `taskloop server`: the local Temporal dev server with taskloop's search attributes and a durable SQLite file.
import path from 'node:path';
import { intFlag, parseFlags } from '../args.js';
import { stateDir } from '../../platform/paths.js';
import { startDevServer } from '../../platform/server/dev-server.js';
import { recordServerPid, stopRecordedServer } from '../../platform/server/pid-file.js';
import { ensureTemporalCli } from '../../platform/server/temporal-cli.js';
import { WorkFailed } from '../cli-errors.js';
import type { Command } from './command.js';

const help = `Usage: taskloop server [--port 7233] [--ui-port 8233] [--ip 127.0.0.1] [--headless] [--db FILE | --memory] [--detach]
       taskloop server stop

Starts \`temporal server start-dev\` with the search attributes TaskId, Project, Phase, TaskStatus, FailureClass and
Attempt, keeping its state in a SQLite file (WAL) under .taskloop/ so runs survive a restart. Says so and exits 0
when a Temporal server already answers on that address. Runs in the foreground until Ctrl-C unless --detach.

  --port N       gRPC port (default 7233)          --ui-port N   Web UI port (default 8233)
  --ip ADDR      address to bind (default 127.0.0.1)
  --headless     no Web UI                         --memory      keep nothing on disk
  --db FILE      SQLite file (default .taskloop/temporal.db)
  --detach       leave the server running in the background (log: .taskloop/server.log)

\`taskloop server stop\` stops the server that --detach (or \`taskloop demo\`) left running; its state stays in the db file.`;

export const serverCommand: Command = {
  summary: 'start the local Temporal dev server (Web UI on :8233)',
  help,
  async run(argv) {
    if (argv[0] === 'stop') return stopServer();
    const { values } = parseFlags('server', argv, {
      port: { type: 'string' },
      'ui-port': { type: 'string' },
      ip: { type: 'string' },
      headless: { type: 'boolean' },
      db: { type: 'string' },
      memory: { type: 'boolean' },
      detach: { type: 'boolean' },
    });
    const port = intFlag('server', 'port', values.port, 7233, 1, 65535);
    const uiPort = intFlag('server', 'ui-port', values['ui-port'], port + 1000, 1, 65535);
    const home = stateDir();
    const cliPath = await ensureTemporalCli({ log: (line) => console.error(line) });
    const server = await startDevServer({
      cliPath,
      ip: values.ip ?? '127.0.0.1',
      port,
      uiPort,
      headless: values.headless ?? false,
      dbFile: values.memory ? undefined : path.resolve(values.db ?? path.join(home, 'temporal.db')),
      detached: values.detach ?? false,
      logFile: values.detach ? path.join(home, 'server.log') : undefined,
    });
    if (!server.started) {
      console.log(`Temporal is already serving at ${server.address}; nothing to start.`);
      return 0;
    }
    console.log(`Temporal dev server serving at ${server.address}${server.uiUrl ? `, Web UI at ${server.uiUrl}` : ''}`);
    if (port !== 7233) console.log(`Point taskloop at it with: export TEMPORAL_ADDRESS=${server.address}`);
    if (values.detach) {
      await recordServerPid(server.pid);
      console.log(`Running in the background (pid ${server.pid}); stop it with: taskloop server stop`);
      return 0;
    }
    const stop = () => void server.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await server.exited;
    return 0;
  },
};

async function stopServer(): Promise<number> {
  const pid = await stopRecordedServer();
  if (pid === undefined)
    throw new WorkFailed(
      'taskloop server stop: no detached server of this folder is running (none recorded in .taskloop/server.pid)',
    );
  console.log(`Stopped the Temporal dev server (pid ${pid}); its state stays in .taskloop/temporal.db`);
  return 0;
}
