// Launches one worker host in this process and hands back a way to stop it: used by `taskloop worker`, which
// runs until a stop signal, and by the demo, which stops it when its batch is done.
import { stopOwnedLocalServer } from '../platform/local-model/owned-server.js';
import { NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { refuseUnreachable, resolveTemporalTarget, unreachable, type TemporalTarget } from '../platform/connection.js';
import { stateDir } from '../platform/paths.js';
import { SHARED_TASK_QUEUE } from '../workflows/task-queues.js';
import { createWorkerSet, prebuiltWorkflows, runWorkerSet } from './create-workers.js';
import { resolveHost, type HostIdentity } from './host.js';
import {
  killRecordedGroups,
  processRecordsDir,
  removeDeadWorkersCgroups,
  removeDeadWorkersMemoryCgroups,
  resolveWorkerSandbox,
  SandboxConfigError,
} from '../activities/sandbox/index.js';
import { environmentCacheDir, removeDeadStaging } from '../activities/environments/index.js';
import { checkSandbox, checkSearchAttributes, checkWorkerTools, PreflightError } from './preflight.js';
import { LineLogger } from './logger.js';
import { parseLogSettings, type LogSettings } from './log-settings.js';
import { telemetryOptions } from './telemetry.js';
import { registerZeroCounters } from './zero-counters.js';
import {
  letLongLivedWorkflowsFollow,
  promoteWhenRegistered,
  resolveDeployment,
  type DeploymentSettings,
} from './deployment.js';
import { buildId } from '../platform/version.js';
import { otlpTracesUrl, startTracing, type Tracing } from '../platform/tracing.js';
import { describeHostCodec, resolveHostCodec } from '../platform/codec/host-codec.js';
import { CodecConfigError } from '../platform/codec/codec-keys.js';
import { ACCEPT_CLEAR_VARIABLE, refusesClearInputs } from '../platform/codec/clear-inputs.js';

export interface LaunchOptions {
  env?: NodeJS.ProcessEnv;
  /** How long in-flight activities may finish after a stop signal (ms or a duration string; default 30s). */
  shutdownGraceTime?: number | string;
  /** `host:port` for the Prometheus endpoint (`/metrics`); also TASKLOOP_METRICS. Off when unset. */
  metrics?: string;
  /** Make this worker's deployment version current at start (also TASKLOOP_PROMOTE=1). */
  promote?: boolean;
  log?: (line: string) => void;
  /** The `--sandbox` flag (bwrap or none); TASKLOOP_SANDBOX when absent. */
  sandbox?: string;
  /** Where the worker's log lines go instead of stderr (the demo: its live board stays in place on a terminal). */
  logFile?: string;
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
  const logSettings = parseLogSettings(env);
  if (!logSettings.success) throw new Error(logSettings.error);
  const metrics = options.metrics ?? env.TASKLOOP_METRICS;
  const deployment = resolveDeployment(env, options.promote ?? env.TASKLOOP_PROMOTE === '1');
  if (!deployment.success) throw new Error(deployment.error);
  installRuntimeOnce(logSettings.data, metrics, options.logFile);
  const target = resolveTemporalTarget(env);
  const hostCodec = refusedAtStart(() => resolveHostCodec(env), CodecConfigError);
  const refuseClear = refusedAtStart(() => refusesClearInputs(hostCodec, env), CodecConfigError);
  // Before the slower checks: a server that is not there is the first thing to say.
  await refuseUnreachable(target);
  const tools = await checkWorkerTools(env);
  const host = resolveHost(env);
  const sandbox = refusedAtStart(
    () => resolveWorkerSandbox({ workDir: host.workDir, flag: options.sandbox, env }),
    SandboxConfigError,
  );
  await checkSandbox(sandbox, log, env);
  await cleanUpAfterEarlierWorkers(host, log);
  const taskQueue = env.TASKLOOP_TASK_QUEUE ?? SHARED_TASK_QUEUE;
  const connection = await connectWorker(target);
  const tracing = await startTracing({ env, serviceName: 'taskloop-worker' });
  const eventsFile = path.resolve(env.TASKLOOP_EVENTS_FILE ?? path.join(stateDir(env), 'events.jsonl'));
  try {
    const version = deployment.data;
    const workflowBundle = tracing ? undefined : prebuiltWorkflows();
    const workers = await createWorkerSet({
      workflowBundle,
      connection,
      namespace: target.namespace,
      host,
      eventsFile,
      taskQueue,
      shutdownGraceTime: options.shutdownGraceTime,
      sandbox,
      deployment: version,
      tracing,
      dataConverter: { payloadCodecs: [hostCodec.codec] },
      ...(refuseClear && hostCodec.keys ? { refuseClearInputs: { keyId: hostCodec.keys.current.id } } : {}),
    });
    registerZeroCounters(target.namespace, host.hostQueue);
    log(
      `taskloop worker ${host.hostId} (taskloop ${version?.buildId ?? buildId()}) connected to ${target.address} (namespace ${target.namespace})`,
    );
    log(`  serving task queues: ${taskQueue} (workflows, claims), ${host.hostQueue} (worktree-bound activities)`);
    log(`  work folder: ${host.workDir}; events: ${eventsFile}; python/pytest: ${tools.python}`);
    log(`  ${describeHostCodec(hostCodec)}${clearInputsNote(hostCodec, refuseClear)}`);
    log(`  workflows: ${workflowBundle ? `bundled by the build (${workflowBundle.codePath})` : 'bundled at start'}`);
    if (metrics) log(`  metrics: http://${metrics}/metrics (Prometheus)`);
    if (tracing) log(`  traces: OTLP/HTTP to ${otlpTracesUrl(env) ?? 'the configured span processor'}`);
    const running = runUntilStopped(workers, connection, tracing);
    const stop = async () => {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    };
    if (version) await followDeployment({ target, version, host, taskQueue, log, stop });
    return { host, taskQueue, eventsFile, running, stop };
  } catch (error) {
    await connection.close();
    await tracing?.shutdown();
    throw error;
  }
}

/** Runs the workers; when they stop, so do what lives only for them (a llama-server it started, the connection, traces). */
function runUntilStopped(workers: Worker[], connection: NativeConnection, tracing: Tracing | undefined): Promise<void> {
  return runWorkerSet(workers).finally(async () => {
    // A llama-server this worker started for local: models is its child: stopped with it, or the worker process
    // would stay alive for it (and the server outlive the worker).
    await stopOwnedLocalServer();
    await connection.close();
    await tracing?.shutdown();
  });
}

/** Temporal's runtime is installed once per process: its log lines go through LineLogger, its metrics to `metrics`. */
function installRuntimeOnce(settings: LogSettings, metrics: string | undefined, logFile: string | undefined): void {
  if (runtimeInstalled) return;
  const write = logFile ? (line: string) => appendFileSync(logFile, `${line}\n`) : undefined;
  Runtime.install({ logger: new LineLogger(settings, write), telemetryOptions: telemetryOptions(metrics) });
  runtimeInstalled = true;
}

/** A configuration error found at start is a preflight failure: said in one line, nothing started. */
function refusedAtStart<T>(resolve: () => T, configError: new (message: string) => Error): T {
  try {
    return resolve();
  } catch (error) {
    throw error instanceof configError ? new PreflightError(error.message) : error;
  }
}

/** Test process groups and sandbox cgroups a crashed predecessor left behind are orphans: nothing will read them. */
async function cleanUpAfterEarlierWorkers(host: HostIdentity, log: (line: string) => void): Promise<void> {
  const orphans = await killRecordedGroups(processRecordsDir(host.workDir));
  if (orphans.length > 0)
    log(`  killed ${orphans.length} test process group(s) left by an earlier worker: ${orphans.join(', ')}`);
  const staleCgroups = (await removeDeadWorkersCgroups()) + (await removeDeadWorkersMemoryCgroups());
  if (staleCgroups > 0) log(`  removed ${staleCgroups} sandbox cgroup(s) left by workers that are no longer running`);
  // A cache folder this worker cannot use is said by the first task that needs it (EnvironmentSetupFailed).
  const cache = (() => {
    try {
      return environmentCacheDir(host.workDir);
    } catch {
      return undefined;
    }
  })();
  const staging = cache ? await removeDeadStaging(cache) : [];
  if (staging.length > 0) log(`  removed ${staging.length} environment staging folder(s) left by killed builds`);
}

/** The worker's connection, once the server is known to have taskloop's search attributes (else closed again). */
async function connectWorker(target: TemporalTarget): Promise<NativeConnection> {
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
  return connection;
}

/**
 * A versioned worker: its version made current when asked (the workers stopped if that fails), and the learning and
 * project workflows pinned by a release from before they followed upgrades taken along once (not fatal).
 */
async function followDeployment(options: {
  target: TemporalTarget;
  version: DeploymentSettings;
  host: HostIdentity;
  taskQueue: string;
  log: (line: string) => void;
  stop: () => Promise<void>;
}): Promise<void> {
  const { target, version, log } = options;
  const current = await promoteWhenRegistered(target, version, `taskloop@${options.host.hostId}`).catch(
    async (error: unknown) => {
      await options.stop().catch(() => undefined);
      throw error;
    },
  );
  const promoteHint = `make it current with: temporal worker deployment set-current-version --deployment-name ${version.deploymentName} --build-id ${version.buildId} --ignore-missing-task-queues --yes`;
  log(
    `  deployment ${version.deploymentName}, build id ${version.buildId}: ${current ? 'current (new tasks start here; running ones stay pinned to their version)' : `not current; ${promoteHint}`}`,
  );
  const moved = await letLongLivedWorkflowsFollow(target, options.taskQueue).catch((error: unknown) => {
    log(`  could not let pinned learning and project workflows follow upgrades: ${(error as Error).message}`);
    return 0;
  });
  if (moved > 0) log(`  ${moved} learning or project workflow(s) pinned by an earlier release now follow upgrades`);
}

/** Said after the payloads line of a keyed worker: whether a task started in clear is refused. */
function clearInputsNote(host: ReturnType<typeof resolveHostCodec>, refuses: boolean): string {
  if (!host.keys) return '';
  return refuses
    ? `; a task whose input is stored in clear is refused (${ACCEPT_CLEAR_VARIABLE}=1 accepts it)`
    : `; clear task inputs accepted (${ACCEPT_CLEAR_VARIABLE}=1)`;
}
