// `taskloop worker`: one worker host serving the shared queue and its own host queue.
import { durationFlag, parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import type { Command } from './command.js';
import { parseLogSettings } from '../../workers/log-settings.js';
import { parseMetricsAddress } from '../../workers/telemetry.js';
import { resolveDeployment } from '../../workers/deployment.js';
import { checkSandboxSettings } from '../../workers/sandbox-settings.js';
import { CodecConfigError, resolveCodecKeys } from '../../platform/codec/codec-keys.js';

const help = `Usage: taskloop worker [--grace 30s] [--sandbox bwrap|none] [--metrics HOST:PORT] [--promote]

Connects to Temporal (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TLS variables, TEMPORAL_PROFILE),
serves the shared task queue \`taskloop\` and this host's own queue, and shuts down gracefully on SIGINT/SIGTERM.

  --grace DURATION     how long in-flight activities may finish after a stop signal (default 30s; e.g. 1h30m)
  --sandbox MODE       bwrap (default: tests run in bubblewrap) or none (no isolation: explicit opt-in)
  --metrics HOST:PORT  serve Prometheus metrics on http://HOST:PORT/metrics (the SDK's and taskloop's)
  --promote            with TASKLOOP_DEPLOYMENT: make this worker's version current at start (new tasks run
                       on it; running tasks stay on the version that started them)

Environment: TASKLOOP_HOME (taskloop's local state; default .taskloop at the project root), TASKLOOP_WORK_DIR
(worktrees and artifacts; default $TASKLOOP_HOME/work), TASKLOOP_HOST_ID,
TASKLOOP_EVENTS_FILE (default $TASKLOOP_HOME/events.jsonl), TASKLOOP_PYTHON (default python3),
TASKLOOP_SANDBOX (bwrap|none), TASKLOOP_SANDBOX_MEMORY_MB, _PROCESSES, _FILE_SIZE_MB, _CPU_SECONDS, _OUTPUT_MB
(default limits), TASKLOOP_METRICS (as --metrics), TASKLOOP_LOG_LEVEL (TRACE, DEBUG, INFO, WARN, ERROR; default INFO),
TASKLOOP_LOG_FORMAT (text or json: one object per line with workflowId, taskId, attempt, node),
TASKLOOP_DEPLOYMENT (a Worker Deployment name: turns on versioning, workflows pinned to their version),
TASKLOOP_BUILD_ID (default: package version + git commit, e.g. 0.1.0+3f2a9c1d4e5b), TASKLOOP_PROMOTE=1 (as --promote),
TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE (payload keys, id:base64 entries, the first encrypts: the same keys
as every client's; docs/security.md#encrypted-payloads); with keys, a task whose start input is stored in clear is
refused unless TASKLOOP_ACCEPT_CLEAR_INPUTS=1.`;

export const workerCommand: Command = {
  summary: 'run a worker that serves tasks (graceful on SIGINT/SIGTERM)',
  help,
  async run(argv) {
    const { values } = parseFlags('worker', argv, {
      grace: { type: 'string' },
      sandbox: { type: 'string' },
      metrics: { type: 'string' },
      promote: { type: 'boolean' },
    });
    const shutdownGraceTime = durationFlag('worker', 'grace', values.grace, 30_000);
    const logSettings = parseLogSettings(process.env);
    if (!logSettings.success) throw new UsageError(`taskloop worker: ${logSettings.error}`);
    const metrics = values.metrics ?? process.env.TASKLOOP_METRICS;
    const address = metrics === undefined ? undefined : parseMetricsAddress(metrics);
    if (address && !address.success)
      throw new UsageError(`taskloop worker: ${values.metrics ? '--metrics' : 'TASKLOOP_METRICS'}: ${address.error}`);
    const sandbox = checkSandboxSettings(values.sandbox, process.env);
    if (!sandbox.success) throw new UsageError(`taskloop worker: ${sandbox.error}`);
    const deployment = resolveDeployment(process.env, values.promote ?? process.env.TASKLOOP_PROMOTE === '1');
    if (!deployment.success) throw new UsageError(`taskloop worker: ${deployment.error}`);
    try {
      resolveCodecKeys(process.env);
    } catch (error) {
      if (error instanceof CodecConfigError) throw new UsageError(`taskloop worker: ${error.message}`);
      throw error;
    }
    // Loaded here, not at the top: the worker SDK costs every other command about a second at start-up.
    const { startWorker } = await import('../../workers/main.js');
    await startWorker({ shutdownGraceTime, sandbox: values.sandbox, metrics: address?.data, promote: values.promote });
    return 0;
  },
};
