// Starts taskloop's node-llama-cpp server (server-main.ts) as a process of its own, the way llama-server is started.
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectRoot } from '../../paths.js';
import { startServerProcess, type RunningModelServer } from '../owned-process.js';

export interface NodeLlamaServerOptions {
  runtimeDir: string;
  model: string;
  port: number;
  ctx: number;
  threads: number;
  alias: string;
  logFile?: string;
  readyTimeoutMs?: number;
}

const entry = path.join('platform', 'local-model', 'node-llama', 'server-main');

/**
 * Node's arguments for the server's entry: the compiled file in dist/ (this module may be inside the CLI's bundle,
 * so the path comes from the project root), or the TypeScript source through tsx when taskloop runs from its sources
 * (tests, `bin/taskloop.js` before a build).
 */
export function serverEntryArgs(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [path.join(projectRoot, 'dist', `${entry}.js`)];
  return ['--import', createRequire(import.meta.url).resolve('tsx'), path.join(projectRoot, `${entry}.ts`)];
}

export function nodeLlamaServerArgs(options: NodeLlamaServerOptions): string[] {
  return [
    ...serverEntryArgs(),
    '--runtime',
    options.runtimeDir,
    '--model',
    options.model,
    '--port',
    String(options.port),
    '--ctx',
    String(options.ctx),
    '--threads',
    String(options.threads),
    '--alias',
    options.alias,
  ];
}

/** Starts the server and waits until the model is loaded (/health answers 200). */
export function startNodeLlamaServer(options: NodeLlamaServerOptions): Promise<RunningModelServer> {
  return startServerProcess({
    name: 'node-llama-cpp server',
    command: process.execPath,
    args: nodeLlamaServerArgs(options),
    port: options.port,
    ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
    ...(options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: options.readyTimeoutMs }),
  });
}
