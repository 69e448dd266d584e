// Connects tests to the shared dev server and runs real taskloop workers (the production worker set) per test file.
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { createWorkerSet, runWorkerSet } from '../../../workers/create-workers.js';
import { hostTaskQueue } from '../../../workflows/task-queues.js';

// Worker INFO lines would bury test output; warnings and errors still show.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed in this fork by another test file.
}

export async function connectTestClient(): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({ address: inject('temporalAddress') });
  return { client: new Client({ connection }), connection };
}

export interface TestWorkerHost {
  hostId: string;
  workDir: string;
  eventsFile: string;
  taskQueue: string;
  stop(): Promise<void>;
}

/** Starts one worker host (shared queue + its own queue) in this process, with its own work folder. */
export async function startTestWorkers(options: { taskQueue: string; hostId?: string }): Promise<TestWorkerHost> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-work-'));
  const hostId = options.hostId ?? `test-${path.basename(workDir).replace(/[^A-Za-z0-9-]/g, '')}`;
  const eventsFile = path.join(workDir, 'events.jsonl');
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  const workers: Worker[] = await createWorkerSet({
    connection,
    namespace: 'default',
    host: { hostId, hostQueue: hostTaskQueue(hostId), workDir },
    eventsFile,
    taskQueue: options.taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    shutdownGraceTime: '2s',
  });
  const running = runWorkerSet(workers);
  return {
    hostId,
    workDir,
    eventsFile,
    taskQueue: options.taskQueue,
    async stop() {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** Polls until `check` returns a value (visibility is eventually consistent); fails with `what` after the timeout. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const uniqueId = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export interface TestTemporal {
  readonly client: Client;
  readonly host: TestWorkerHost;
}

/** For a describe block: a client and one worker host on a queue of its own, started before and stopped after. */
export function useTestTemporal(queuePrefix: string): TestTemporal {
  let client: Client | undefined;
  let connection: Connection | undefined;
  let host: TestWorkerHost | undefined;
  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
    host = await startTestWorkers({ taskQueue: uniqueId(queuePrefix) });
  });
  afterAll(async () => {
    await host?.stop();
    await connection?.close();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready: use it inside tests, not at describe time`);
    return value;
  };
  return {
    get client() {
      return ready(client, 'the test client');
    },
    get host() {
      return ready(host, 'the test worker host');
    },
  };
}

/** The environment of a `taskloop worker` child process with a work folder and queue of its own, on the test server. */
export async function workerProcessEnv(
  taskQueue: string,
  extra: Record<string, string> = {},
): Promise<NodeJS.ProcessEnv> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-worker-'));
  return {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TASKLOOP_TASK_QUEUE: taskQueue,
    TASKLOOP_WORK_DIR: workDir,
    TASKLOOP_HOST_ID: uniqueId('process'),
    TASKLOOP_EVENTS_FILE: path.join(workDir, 'events.jsonl'),
    ...extra,
  };
}

/** For a describe block that runs its own workers: just a client, connected before and closed after. */
export function useTestClient(): { readonly client: Client } {
  let client: Client | undefined;
  let connection: Connection | undefined;
  beforeAll(async () => {
    ({ client, connection } = await connectTestClient());
  });
  afterAll(async () => {
    await connection?.close();
  });
  return {
    get client() {
      if (!client) throw new Error('the test client is not ready: use it inside tests, not at describe time');
      return client;
    },
  };
}
