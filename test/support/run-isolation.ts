// A test run never touches the user's taskloop state nor a Temporal server it did not start: the dev server that
// `npm run demo` leaves on the checkout's .taskloop/temporal.db and 127.0.0.1:7233, or one the user runs, whatever
// the shell that ran `npm test` exports. Every test process inherits this environment; a test that wants a server,
// a database or a home passes its own.
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The variables that point a command at a Temporal server or its settings, dropped from the run's environment. */
const TEMPORAL_TARGET = /^TEMPORAL_(ADDRESS|NAMESPACE|PROFILE|API_KEY|TLS.*|CODEC.*|UI_URL|GRPC_META.*)$/;

/**
 * Gives the run a TASKLOOP_HOME of its own under `runDir`, no Temporal config file, and a TEMPORAL_ADDRESS on a port
 * this process holds and serves nothing on: a command a test starts without an address of its own fails at once
 * (connection reset), where it would otherwise reach the default 127.0.0.1:7233.
 */
export async function isolateRun(runDir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ address: string }> {
  for (const name of Object.keys(env)) if (TEMPORAL_TARGET.test(name)) delete env[name];
  const home = path.join(runDir, 'taskloop-home');
  mkdirSync(home, { recursive: true });
  env.TASKLOOP_HOME = home;
  env.TEMPORAL_CONFIG_FILE = path.join(runDir, 'no-temporal-config.toml');
  const port = await holdPort();
  env.TEMPORAL_ADDRESS = `127.0.0.1:${port}`;
  return { address: env.TEMPORAL_ADDRESS };
}

/** Listens on a free loopback port for the life of the process, closing every connection: no test gets that port. */
async function holdPort(): Promise<number> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref();
  return (server.address() as net.AddressInfo).port;
}
