// Starts `temporal server start-dev` with taskloop's search attributes, SQLite in WAL mode, and waits until it serves.
import { Connection } from '@temporalio/client';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { searchAttributeCliPairs } from '../../workflows/search-attributes.js';
import { findDevServersUsing } from './db-holders.js';
import { findFreePort, isPortFree } from './ports.js';
import { ensureSearchAttributes } from './search-attributes.js';

export interface DevServerOptions {
  cliPath: string;
  ip?: string;
  port?: number;
  uiPort?: number;
  headless?: boolean;
  /** SQLite file for durable state; omitted = in memory (tests). */
  dbFile?: string;
  namespace?: string;
  /** Where the server's own output goes when detached. */
  logFile?: string;
  /** Keep running after this process exits (the demo leaves the server up for the Web UI). */
  detached?: boolean;
  readyTimeoutMs?: number;
  /** The codec server the Web UI's browsers call to decode payloads (`taskloop codec-server`). */
  uiCodecEndpoint?: string;
  /** Server settings (`--dynamic-config-value key=value`, the value as JSON); tests shorten waits with them. */
  dynamicConfig?: Record<string, string | number | boolean>;
}

export interface RunningDevServer {
  address: string;
  uiUrl?: string;
  pid?: number;
  /** false when a server was already listening there and we attached to it. */
  started: boolean;
  stop(): Promise<void>;
  exited?: Promise<unknown>;
}

export class DevServerError extends Error {
  override name = 'DevServerError';
}

/** The full argument list for `temporal server start-dev`, exported so tests can check it. */
export function devServerArgs(options: DevServerOptions): string[] {
  const ip = options.ip ?? '127.0.0.1';
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(options.port ?? 7233), '--log-level', 'warn'];
  args.push('--namespace', options.namespace ?? 'default');
  if (options.headless) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort ?? 8233), '--ui-disable-news-fetch');
  if (options.uiCodecEndpoint && !options.headless) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  if (options.dbFile) {
    // WAL lets the Web UI and workers read while the server writes; NORMAL sync is durable with WAL across app crashes.
    args.push(
      '--db-filename',
      options.dbFile,
      '--sqlite-pragma',
      'journal_mode=wal',
      '--sqlite-pragma',
      'synchronous=normal',
    );
  }
  for (const { name, type } of searchAttributeCliPairs()) args.push('--search-attribute', `${name}=${type}`);
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {}))
    args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  return args;
}

/** True when a Temporal frontend answers at this address. */
export async function isTemporalServing(address: string, timeoutMs = 1500): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: timeoutMs });
    await connection.workflowService.getSystemInfo({});
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

async function waitUntilServing(address: string, serverExited: Promise<unknown>, timeoutMs: number): Promise<void> {
  let exited = false;
  serverExited.then(
    () => (exited = true),
    () => (exited = true),
  );
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited)
      throw new DevServerError(
        `temporal server start-dev exited before serving on ${address}; see its output above or the server log`,
      );
    if (await isTemporalServing(address, 1000)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new DevServerError(`the Temporal dev server did not answer on ${address} within ${timeoutMs} ms`);
}

/** Starts the dev server, or attaches to one already serving on the same address. */
export async function startDevServer(options: DevServerOptions): Promise<RunningDevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port ?? 7233;
  const address = `${ip}:${port}`;
  const uiUrl = options.headless
    ? undefined
    : `http://${ip === '0.0.0.0' ? 'localhost' : ip}:${options.uiPort ?? 8233}`;
  if (await isTemporalServing(address)) {
    await ensureSearchAttributes(address, options.namespace ?? 'default');
    return { address, uiUrl, started: false, stop: async () => undefined };
  }
  if (options.dbFile) {
    // A second server on the same SQLite file would fight the first over it (and a pid file would lose the first).
    const [holder] = await findDevServersUsing(options.dbFile);
    if (holder)
      throw new DevServerError(
        `${options.dbFile} is in use by the Temporal dev server with pid ${holder.pid} at ${holder.address}; use that one (export TEMPORAL_ADDRESS=${holder.address}) or stop it first (taskloop server stop)`,
      );
  }
  if (!(await isPortFree(port, ip))) {
    throw new DevServerError(
      `port ${port} on ${ip} is in use by a program that is not a Temporal server; pass --port with a free port (and --ui-port)`,
    );
  }
  if (!options.headless && !(await isPortFree(options.uiPort ?? 8233, ip))) {
    throw new DevServerError(
      `Web UI port ${options.uiPort ?? 8233} on ${ip} is in use; pass --ui-port with a free port, or --headless`,
    );
  }
  if (options.dbFile) await mkdir(path.dirname(options.dbFile), { recursive: true });
  const child = await spawnServer(options);
  try {
    await waitUntilServing(address, child.exited, options.readyTimeoutMs ?? 60_000);
    await ensureSearchAttributes(address, options.namespace ?? 'default');
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return {
    address,
    uiUrl,
    pid: child.pid,
    started: true,
    exited: child.exited,
    stop: async () => {
      child.kill('SIGTERM');
      await child.exited;
    },
  };
}

interface ServerProcess {
  pid?: number;
  exited: Promise<unknown>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Attached: the server lives and dies with this process (execa cleans it up). Detached: its own session, output
 * to the log file, and no handle left that would keep this process alive after the demo ends.
 */
async function spawnServer(options: DevServerOptions): Promise<ServerProcess> {
  if (!options.detached) {
    const child = execa(options.cliPath, devServerArgs(options), {
      stdin: 'ignore',
      stdout: options.logFile ? { file: options.logFile, append: true } : 'inherit',
      stderr: options.logFile ? { file: options.logFile, append: true } : 'inherit',
      reject: false,
    });
    return { pid: child.pid, exited: child, kill: (signal) => child.kill(signal) };
  }
  const logFile = options.logFile ?? '/dev/null';
  await mkdir(path.dirname(logFile), { recursive: true });
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(options.cliPath, devServerArgs(options), { detached: true, stdio: ['ignore', fd, fd] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.unref();
    return { pid: child.pid, exited, kill: (signal) => child.kill(signal) };
  } finally {
    closeSync(fd);
  }
}

/**
 * For throwaway servers (tests, benchmarks): a free port, and a second or third try on another one, because the
 * dev server also picks free ports of its own (HTTP, metrics) and can lose such a race on a busy machine.
 */
export async function startDevServerOnFreePort(
  options: Omit<DevServerOptions, 'port'>,
  tries = 3,
): Promise<RunningDevServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevServer({ ...options, port: await findFreePort(options.ip) });
    } catch (error) {
      if (attempt >= tries || !(error instanceof DevServerError)) throw error;
    }
  }
}
