// One time-skipping test server per test file, and per test a worker pair (shared queue with the workflows, and a
// host queue) running the stub activities: timers (retry windows, backoff, hostLostAfterMs) pass in no real time.
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, inject } from 'vitest';
import { createStubs, type StubScript, type Stubs } from './stubs.js';

try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed in this fork by another test file.
}

export interface StubRun {
  client: Client;
  env: TestWorkflowEnvironment;
  taskQueue: string;
  hostQueue: string;
  stubs: Stubs;
}

let counter = 0;
export const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** Starts the test server before the file's tests and stops it after; returns a getter for the environment. */
export function useTestServer(): () => TestWorkflowEnvironment {
  let env: TestWorkflowEnvironment | undefined;
  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: inject('testServerPath') } },
    });
  });
  afterAll(async () => {
    await env?.teardown();
  });
  return () => {
    if (!env) throw new Error('the test server is not ready: use it inside tests');
    return env;
  };
}

/** Runs `body` while workers serve the workflows with stubs scripted by `script`. */
export async function withStubs<T>(
  env: TestWorkflowEnvironment,
  script: StubScript,
  body: (run: StubRun) => Promise<T>,
): Promise<T> {
  const taskQueue = uniqueId('wf');
  const hostQueue = `${taskQueue}-host`;
  const stubs = createStubs(script, hostQueue);
  const common = { connection: env.nativeConnection, activities: stubs.activities, shutdownGraceTime: '1s' };
  const shared = await Worker.create({
    ...common,
    taskQueue,
    workflowBundle: { codePath: inject('workflowTierBundlePath') },
  });
  const host = await Worker.create({ ...common, taskQueue: hostQueue });
  const run = { client: env.client, env, taskQueue, hostQueue, stubs };
  return shared.runUntil(host.runUntil(body(run)));
}
