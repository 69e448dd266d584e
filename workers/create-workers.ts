// Builds the two workers of one host: the shared queue (workflows and claims) and the host's own queue
// (activities bound to worktrees in this host's work folder).
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { taskEventSinks } from './event-sinks.js';
import { createActivities } from '../activities/index.js';
import { SHARED_TASK_QUEUE } from '../workflows/task-queues.js';
import type { WorkerSandbox } from '../activities/sandbox/index.js';
import type { HostIdentity } from './host.js';
import type { Tracing } from '../platform/tracing.js';
import { workerDeploymentOptions, type DeploymentSettings } from './deployment.js';
import { encryptingIdentitySuffix } from '../platform/codec/clear-inputs.js';

const require = createRequire(import.meta.url);

/** The longest a running activity's heartbeat waits before it is sent to the server (and a cancel comes back). */
export const MAX_HEARTBEAT_THROTTLE = '1s';

export interface WorkerSetOptions {
  connection: NativeConnection;
  namespace: string;
  host: HostIdentity;
  eventsFile: string;
  /** A prebuilt bundle (tests build one per run); by default the workflows are bundled from source. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** The shared queue (default `taskloop`); tests give each file its own so their workers never share work. */
  taskQueue?: string;
  /** How long in-flight activities may finish after SIGINT/SIGTERM before they are cancelled. */
  shutdownGraceTime?: WorkerOptions['shutdownGraceTime'];
  /** The sandbox mode and default limits of test runs (from TASKLOOP_SANDBOX* when absent). */
  sandbox?: WorkerSandbox;
  /** The deployment version both workers declare (Worker Deployment Versioning); unversioned without it. */
  deployment?: Pick<DeploymentSettings, 'deploymentName' | 'buildId'>;
  /** Payload codecs (platform/codec/): applied outside the workflow sandbox, to what the server stores. */
  dataConverter?: Pick<NonNullable<WorkerOptions['dataConverter']>, 'payloadCodecs'>;
  /** Traces workflows and activities (platform/tracing.ts); a prebuilt bundle must include tracingWorkflowModule(). */
  tracing?: Tracing;
  /** A keyed worker that refuses clear task inputs: its identity says so (with this key id), its claims check. */
  refuseClearInputs?: { keyId: string };
}

/** The workflows' entry: TypeScript when run from source, the compiled file when run from dist/. */
export const workflowsPath = () =>
  require.resolve(path.join('..', 'workflows', `index${path.extname(new URL(import.meta.url).pathname)}`));

/**
 * The workflows as the build bundled them (scripts/build.mjs), when this worker runs from dist/: the bin runs dist/
 * only while it is newer than every source, so the bundle is of the same code. From source, none: webpack bundles
 * them at the start (a traced worker too: its bundle holds the tracing interceptors).
 */
export function prebuiltWorkflows(): { codePath: string } | undefined {
  const entry = workflowsPath();
  const codePath = path.join(path.dirname(entry), 'bundle.js');
  return entry.endsWith('.js') && existsSync(codePath) ? { codePath } : undefined;
}

/** The activities both workers register: every one wrapped by the secret scrub (test/unit/workers/activities-scrubbed). */
export function workerActivities(
  options: Pick<WorkerSetOptions, 'host' | 'eventsFile' | 'sandbox' | 'refuseClearInputs'>,
) {
  return createActivities({
    ...options.host,
    eventsFile: options.eventsFile,
    sandbox: options.sandbox,
    refuseClearInputs: options.refuseClearInputs !== undefined,
  });
}

export async function createWorkerSet(options: WorkerSetOptions): Promise<Worker[]> {
  const activities = workerActivities(options);
  const common = {
    connection: options.connection,
    namespace: options.namespace,
    activities,
    shutdownGraceTime: options.shutdownGraceTime ?? '30s',
    // A cancel reaches a running activity only in the reply to a heartbeat it sends: with heartbeats every second
    // (activities/heartbeat-while.ts) and at most a second between those sent, it arrives within about 1 s, not at
    // the default throttle (80 % of the heartbeat timeout: 16 s).
    maxHeartbeatThrottleInterval: MAX_HEARTBEAT_THROTTLE,
    // A keyless CLI reads the queue's pollers' identities to learn that its workers refuse clear inputs.
    identity: `taskloop@${options.host.hostId}/${process.pid}${encryptingIdentitySuffix(options.refuseClearInputs?.keyId)}`,
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    ...(options.deployment ? { workerDeploymentOptions: workerDeploymentOptions(options.deployment) } : {}),
    // Loaded only when tracing is on: an untraced worker never loads the OpenTelemetry SDK.
    ...(options.tracing
      ? (await import('./tracing.js')).workerTracingOptions(options.tracing, { bundled: !!options.workflowBundle })
      : {}),
  };
  const workflows = options.workflowBundle
    ? { workflowBundle: options.workflowBundle }
    : { workflowsPath: workflowsPath() };
  // The worker that runs workflows also writes their events (the tracing's exporter sink, if any, stays beside).
  const sinks = { ...('sinks' in common ? common.sinks : {}), ...taskEventSinks(options.eventsFile) };
  const shared = await Worker.create({
    ...common,
    ...workflows,
    sinks,
    taskQueue: options.taskQueue ?? SHARED_TASK_QUEUE,
  });
  const own = await Worker.create({ ...common, taskQueue: options.host.hostQueue });
  return [shared, own];
}

/** Runs every worker until all have shut down; if one fails the others are shut down too. */
export async function runWorkerSet(workers: Worker[]): Promise<void> {
  const runs = workers.map((worker) =>
    worker.run().catch((error: unknown) => {
      for (const other of workers) if (other.getState() === 'RUNNING') other.shutdown();
      throw error;
    }),
  );
  const results = await Promise.allSettled(runs);
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
}
