// Starts one taskloop worker host: connects with the standard Temporal settings, serves the shared queue and its
// own queue, and shuts down gracefully on SIGINT/SIGTERM (in-flight activities get the grace period).
import { DefaultLogger, NativeConnection, Runtime, type LogLevel } from '@temporalio/worker';
import path from 'node:path';
import { resolveTemporalTarget, unreachable } from '../client/connection.js';
import { stateDir } from '../client/paths.js';
import { createWorkerSet, runWorkerSet } from './create-workers.js';
import { resolveHost } from './host.js';
import { checkWorkerTools } from './preflight.js';
import { SHARED_TASK_QUEUE } from '../workflows/task-queues.js';

export interface StartWorkerOptions {
  env?: NodeJS.ProcessEnv;
  shutdownGraceTime?: string;
  log?: (line: string) => void;
}

export async function startWorker(options: StartWorkerOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  // The SDK's own INFO lines (bundler statistics and the like) drown what an operator needs; WARN unless asked.
  Runtime.install({ logger: new DefaultLogger((env.TASKLOOP_LOG_LEVEL ?? 'WARN').toUpperCase() as LogLevel) });
  const tools = await checkWorkerTools(env);
  const taskQueue = env.TASKLOOP_TASK_QUEUE ?? SHARED_TASK_QUEUE;
  const target = resolveTemporalTarget(env);
  const host = resolveHost(env);
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect(target.connectionOptions);
  } catch (error) {
    throw unreachable(target, error);
  }
  const eventsFile = path.resolve(env.TASKLOOP_EVENTS_FILE ?? path.join(stateDir(env), 'events.jsonl'));
  try {
    const workers = await createWorkerSet({ connection, namespace: target.namespace, host, eventsFile, taskQueue, shutdownGraceTime: options.shutdownGraceTime });
    log(`taskloop worker ${host.hostId} connected to ${target.address} (namespace ${target.namespace})`);
    log(`  serving task queues: ${taskQueue} (workflows, claims), ${host.hostQueue} (worktree-bound activities)`);
    log(`  work folder: ${host.workDir}; events: ${eventsFile}; python/pytest: ${tools.python}`);
    log('  stop with Ctrl-C (SIGINT) or SIGTERM: in-flight activities get the shutdown grace period');
    await runWorkerSet(workers);
    log(`taskloop worker ${host.hostId} stopped`);
  } finally {
    await connection.close();
  }
}
