// One Temporal dev server (in memory, headless, free port) and one in-process taskloop worker set: for the bench
// and for recording workflow histories.
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startDevServerOnFreePort } from '../platform/server/dev-server.js';
import { ensureTemporalCli } from '../platform/server/temporal-cli.js';
import { createWorkerSet, prebuiltWorkflows, runWorkerSet, workflowsPath } from './create-workers.js';
import { hostTaskQueue } from '../workflows/task-queues.js';

export interface EphemeralStack {
  client: Client;
  address: string;
  /** The `temporal` CLI that runs the server, for commands such as `temporal workflow show`. */
  cliPath: string;
  taskQueue: string;
  /** Scratch folder of the bench: the workers' work folder and the server log live here. */
  workDir: string;
  stop(): Promise<void>;
}

const noop = () => undefined;
/** A bundler logger that prints only errors (the bench, the history recorder and the test setups bundle quietly). */
export const quietBundler = {
  log: noop,
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: (message: string) => console.error(message),
};

/** Starts server, client and workers; on any failure tears down what already started, then rethrows. */
export async function startEphemeralStack(log: (line: string) => void): Promise<EphemeralStack> {
  // Worker INFO lines would drown the output; warnings and errors still show.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-stack-'));
  const cleanups: (() => Promise<unknown>)[] = [() => rm(workDir, { recursive: true, force: true })];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const cliPath = await ensureTemporalCli({ log });
    const server = await startDevServerOnFreePort({
      cliPath,
      headless: true,
      readyTimeoutMs: 90_000,
      logFile: path.join(workDir, 'server.log'),
    });
    cleanups.push(() => server.stop());
    log(`Temporal dev server at ${server.address} (in memory; log ${workDir}/server.log)`);

    const connection = await Connection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection });

    // From dist/, the workflows as the build bundled them; from source, bundled now.
    const workflowBundle = prebuiltWorkflows() ?? {
      code: (await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietBundler })).code,
    };
    const workerConnection = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => workerConnection.close());
    const hostId = `stack-${path.basename(workDir).replace(/[^A-Za-z0-9-]/g, '')}`;
    const taskQueue = `ephemeral-${hostId}`;
    const workers = await createWorkerSet({
      connection: workerConnection,
      namespace: 'default',
      host: { hostId, hostQueue: hostTaskQueue(hostId), workDir: path.join(workDir, 'work') },
      eventsFile: path.join(workDir, 'events.jsonl'),
      workflowBundle,
      taskQueue,
      shutdownGraceTime: '2s',
    });
    const running = runWorkerSet(workers);
    // Say so at once if the workers die midway (a task would otherwise just never finish); stop() rethrows it.
    running.catch((error: unknown) => log(`taskloop workers stopped with an error: ${String(error)}`));
    cleanups.push(async () => {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    });
    return { client, address: server.address, cliPath, taskQueue, workDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
