// One time-skipping test server and one worker pair per test file (the shared queue with the workflows, and a host
// queue), serving stub activities: each test scripts its own stubs under a project name of its own, and every
// activity call goes to the stubs of the test whose project its workflow id names. Timers (retry windows,
// backoff, hostLostAfterMs) pass in no real time.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, makeTelemetryFilterString, Runtime, Worker, type InjectedSinks } from '@temporalio/worker';
import { afterAll, beforeAll, inject } from 'vitest';
import type { TaskEventSinks } from '../../../workflows/task/proxies.js';
import { activityNames, createStubs, type StubScript, type Stubs } from './stubs.js';

try {
  Runtime.install({
    logger: new DefaultLogger('ERROR'),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }) } },
  });
} catch {
  // Already installed in this fork by another test file.
}

export interface StubRun {
  client: Client;
  env: TestWorkflowEnvironment;
  taskQueue: string;
  hostQueue: string;
  /** The test's own project: every workflow of the test has it in its id. */
  project: string;
  stubs: Stubs;
}

export interface StubServer {
  /** Runs `body` with stubs scripted by `script` serving the workflows of its project. */
  withStubs<T>(script: StubScript, body: (run: StubRun) => Promise<T>): Promise<T>;
}

let counter = 0;
/** Fixed width, so that no id is part of another. */
export const uniqueId = (prefix: string) => `${prefix}${process.pid}x${String(++counter).padStart(5, '0')}`;

/** Starts the test server and the workers before the file's tests and stops them after. */
export function useStubServer(): StubServer {
  let env: TestWorkflowEnvironment | undefined;
  let workers: Worker[] = [];
  let running: Promise<unknown> | undefined;
  const taskQueue = uniqueId('wf');
  const hostQueue = `${taskQueue}-host`;
  const byProject = new Map<string, Stubs>();

  const stubsOf = (workflowId: string): Stubs => {
    for (const [project, stubs] of byProject) if (workflowId.includes(project)) return stubs;
    throw new Error(`no test scripted stubs for workflow ${workflowId}`);
  };
  const dispatch = Object.fromEntries(
    activityNames.map((name) => [
      name,
      (input: unknown) => {
        const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
        const activity = stubsOf(workflowId).activities[name] as (input: unknown) => Promise<unknown>;
        return activity(input);
      },
    ]),
  );

  beforeAll(async () => {
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: inject('testServerPath') } },
    });
    // Heartbeats reach the server at once, so an activity learns of its cancellation without waiting out the throttle.
    const common = {
      connection: env.nativeConnection,
      activities: dispatch,
      shutdownGraceTime: '1s',
      maxHeartbeatThrottleInterval: '100ms',
    };
    // The task's events reach the stubs through the worker's event sink, as a real worker's reach the events file.
    const sinks: InjectedSinks<TaskEventSinks> = {
      taskEvents: {
        record: { fn: (info, events) => void stubsOf(info.workflowId).calls.events.push(...events) },
      },
    };
    workers = [
      await Worker.create({
        ...common,
        sinks,
        taskQueue,
        workflowBundle: { codePath: inject('workflowTierBundlePath') },
      }),
      await Worker.create({ ...common, taskQueue: hostQueue }),
    ];
    running = Promise.all(workers.map((worker) => worker.run()));
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await env?.teardown();
  });

  return {
    async withStubs(script, body) {
      if (!env) throw new Error('the test server is not ready: use it inside tests');
      const project = uniqueId('p');
      const stubs = createStubs(script, hostQueue);
      byProject.set(project, stubs);
      try {
        return await body({ client: env.client, env, taskQueue, hostQueue, project, stubs });
      } finally {
        byProject.delete(project);
      }
    },
  };
}
