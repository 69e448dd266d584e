// Launches one worker host in this process and hands back a way to stop it: used by `taskloop worker`, which
// runs until a stop signal, and by the demo, which stops it when its batch is done.
import { DefaultLogger, NativeConnection, Runtime, type LogLevel } from '@temporalio/worker';
import path from 'node:path';
import { resolveTemporalTarget, unreachable } from '../platform/connection.js';
import { stateDir } from '../platform/paths.js';
import { SHARED_TASK_QUEUE } from '../workflows/task-queues.js';
import { createWorkerSet, runWorkerSet } from './create-workers.js';
import { resolveHost, type HostIdentity } from './host.js';
import { checkSearchAttributes, checkWorkerTools } from './preflight.js';

export interface LaunchOptions {
  env?: NodeJS.ProcessEnv;
  shutdownGraceTime?: string;
  log?: (line: string) => void;
}

export interface LaunchedWorker {
  host: HostIdentity;
  taskQueue: string;
  eventsFile: string;
  /** Settles when every worker of the host has stopped (after `stop()` or a stop signal). */
  running: Promise<void>;
  stop(): Promise<void>;
}

let runtimeInstalled = false;

export async function launchWorker(options: LaunchOptions = {}): Promise<LaunchedWorker> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  if (!runtimeInstalled) {
    // The SDK's own INFO lines (bundler statistics and the like) drown what an operator needs; WARN unless asked.
    Runtime.install({ logger: new DefaultLogger((env.TASKLOOP_LOG_LEVEL ?? 'WARN').toUpperCase() as LogLevel) });
    runtimeInstalled = true;
  }
  const tools = await checkWorkerTools(env);
  const target = resolveTemporalTarget(env);
  const host = resolveHost(env);
  const taskQueue = env.TASKLOOP_TASK_QUEUE ?? SHARED_TASK_QUEUE;
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect(target.connectionOptions);
  } catch (error) {
    throw unreachable(target, error);
  }
  try {
    await checkSearchAttributes(target);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const eventsFile = path.resolve(env.TASKLOOP_EVENTS_FILE ?? path.join(stateDir(env), 'events.jsonl'));
  try {
    const workers = await createWorkerSet({ connection, namespace: target.namespace, host, eventsFile, taskQueue, shutdownGraceTime: options.shutdownGraceTime });
    log(`taskloop worker ${host.hostId} connected to ${target.address} (namespace ${target.namespace})`);
    log(`  serving task queues: ${taskQueue} (workflows, claims), ${host.hostQueue} (worktree-bound activities)`);
    log(`  work folder: ${host.workDir}; events: ${eventsFile}; python/pytest: ${tools.python}`);
    const running = runWorkerSet(workers).finally(() => connection.close());
    return {
      host,
      taskQueue,
      eventsFile,
      running,
      async stop() {
        for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
