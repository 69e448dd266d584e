// A one-host Temporal cluster of taskloop's own: the pinned server built from Go modules, on PostgreSQL with SQL
// visibility, every service in one process, its state in one data folder. Started on free ports (or the given
// frontend port); stopped cleanly (server, then PostgreSQL); the server alone restartable (the soak's fault).
import { execa, type ResultPromise } from 'execa';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isTemporalServing } from '../server/dev-server.js';
import { findFreePort, isPortFree } from '../server/ports.js';
import { ensureSearchAttributes } from '../server/search-attributes.js';
import { ClusterInstallError, installCluster } from './install.js';
import { ensureNamespace } from './namespace.js';
import type { ClusterBinaries } from './pins.js';
import { ensurePostgres, initPostgres, startPostgres, stopPostgres, type PostgresBinaries } from './postgres.js';
import { applySchemas } from './schema.js';
import { clusterPortNames, renderDynamicConfig, renderServerConfig, type ClusterPorts } from './server-config.js';

export interface ClusterOptions {
  /** Everything the cluster keeps: PostgreSQL's data, the server's config and log. */
  dataDir: string;
  /** The frontend's gRPC port (default: a free one). */
  port?: number;
  namespace?: string;
  /** How long closed workflows stay visible (the namespace's retention), in days. */
  retentionDays?: number;
  /** Extra dynamic config values (tests shorten waits with them). */
  dynamicConfig?: Record<string, unknown>;
  log?: (line: string) => void;
  readyTimeoutMs?: number;
}

export interface RunningCluster {
  address: string;
  namespace: string;
  metricsUrl: string;
  dataDir: string;
  serverLog: string;
  serverPid(): number | undefined;
  /** Stops the Temporal server and starts it again on the same ports and data (PostgreSQL keeps running). */
  restartServer(): Promise<void>;
  /** Server first (so nothing writes), then PostgreSQL. */
  stop(): Promise<void>;
  /** Resolves when the server process ends on its own (not by restartServer or stop). */
  exited: Promise<void>;
}

async function choosePorts(frontend: number | undefined): Promise<ClusterPorts> {
  if (frontend !== undefined && !(await isPortFree(frontend)))
    throw new ClusterInstallError(`port ${frontend} on 127.0.0.1 is in use; pass --port with a free port`);
  const chosen = new Set<number>(frontend === undefined ? [] : [frontend]);
  const ports: Partial<ClusterPorts> = { frontend };
  for (const name of clusterPortNames) {
    if (ports[name] !== undefined) continue;
    const pick = name.endsWith('Membership') ? freeMembershipPort : () => findFreePort();
    let port = await pick();
    while (chosen.has(port)) port = await pick();
    chosen.add(port);
    ports[name] = port;
  }
  return ports as ClusterPorts;
}

/** The SQL schema keeps membership ports in a smallint: a free one below 32768 (the OS hands out ports above it). */
async function freeMembershipPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isPortFree(port)) return port;
  }
}

/** Installs what is missing, starts PostgreSQL and the server, then makes the namespace and search attributes. */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const log = options.log ?? (() => undefined);
  const namespace = options.namespace ?? 'default';
  const bin = await installCluster({ log });
  const postgres = await ensurePostgres(log);
  const dataDir = path.resolve(options.dataDir);
  const ports = await choosePorts(options.port);
  const pgDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  await initPostgres(postgres, pgDir);
  await startPostgres(postgres, pgDir, ports.postgres);
  try {
    await applySchemas(bin, ports.postgres, dataDir);
    await writeConfig(dataDir, ports, options.dynamicConfig);
    const server = new ServerProcess(bin, dataDir, `127.0.0.1:${ports.frontend}`, options.readyTimeoutMs ?? 120_000);
    await server.start();
    await ensureNamespace(server.address, namespace, options.retentionDays ?? 3);
    await retryWhileNamespaceLoads(() => ensureSearchAttributes(server.address, namespace));
    log(`Temporal server (PostgreSQL, SQL visibility) serving at ${server.address}; data in ${dataDir}`);
    return clusterHandle(server, postgres, pgDir, ports, namespace);
  } catch (error) {
    await stopPostgres(postgres, pgDir);
    throw error;
  }
}

function clusterHandle(
  server: ServerProcess,
  postgres: PostgresBinaries,
  pgDir: string,
  ports: ClusterPorts,
  namespace: string,
): RunningCluster {
  return {
    address: server.address,
    namespace,
    metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics`,
    dataDir: server.dataDir,
    serverLog: server.logFile,
    serverPid: () => server.pid,
    restartServer: async () => {
      await server.stop();
      await server.start();
    },
    stop: async () => {
      await server.stop();
      await stopPostgres(postgres, pgDir);
    },
    exited: server.unexpectedExit,
  };
}

async function writeConfig(dataDir: string, ports: ClusterPorts, extra?: Record<string, unknown>): Promise<void> {
  const configDir = path.join(dataDir, 'config');
  await mkdir(configDir, { recursive: true });
  const dynamicConfigFile = path.join(configDir, 'dynamicconfig.yaml');
  await writeFile(dynamicConfigFile, renderDynamicConfig(extra));
  await writeFile(path.join(configDir, 'development.yaml'), renderServerConfig(ports, dynamicConfigFile));
}

/** A namespace just registered reaches every service's cache within seconds; until then it reads as not found. */
async function retryWhileNamespaceLoads<T>(call: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** The `temporal-server` process: all four services, its output appended to `server.log` in the data folder. */
class ServerProcess {
  private child: ResultPromise | undefined;
  private stopping = false;
  private resolveExit: () => void = () => undefined;
  readonly unexpectedExit = new Promise<void>((resolve) => (this.resolveExit = resolve));
  readonly logFile: string;

  constructor(
    private readonly bin: ClusterBinaries,
    readonly dataDir: string,
    readonly address: string,
    private readonly readyTimeoutMs: number,
  ) {
    this.logFile = path.join(dataDir, 'server.log');
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    this.stopping = false;
    const args = ['--root', this.dataDir, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'];
    const child = execa(this.bin.server, args, {
      stdin: 'ignore',
      stdout: { file: this.logFile, append: true },
      stderr: { file: this.logFile, append: true },
      reject: false,
    });
    this.child = child;
    let exited = false;
    void child.then(() => {
      exited = true;
      if (!this.stopping) this.resolveExit();
    });
    const deadline = Date.now() + this.readyTimeoutMs;
    while (!(await isTemporalServing(this.address, 1000))) {
      if (exited) throw new ClusterInstallError(`temporal-server exited before serving; see ${this.logFile}`);
      if (Date.now() > deadline) {
        await this.stop();
        throw new ClusterInstallError(`temporal-server did not answer on ${this.address}; see ${this.logFile}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.stopping = true;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await child;
    clearTimeout(killer);
    this.child = undefined;
  }
}
