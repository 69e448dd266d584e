// One worker deployment version in this process: a host (shared queue + its own) declaring deployment name and build id,
// made current as soon as the server has seen it poll.
import { NativeConnection } from '@temporalio/worker';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { resolveTemporalTarget } from '../../../platform/connection.js';
import { createWorkerSet, runWorkerSet } from '../../../workers/create-workers.js';
import { promoteWhenRegistered } from '../../../workers/deployment.js';
import { hostTaskQueue } from '../../../workflows/task-queues.js';
import { uniqueId } from './temporal.js';

export interface RunningVersion {
  /** Whether this version became current. */
  current: boolean;
  hostId: string;
  stop(): Promise<void>;
}

export async function startVersion(
  queue: string,
  deploymentName: string,
  buildId: string,
  workflowBundle: { code: string } | { codePath: string },
): Promise<RunningVersion> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), `taskloop-${buildId}-`));
  const hostId = uniqueId(`host-${buildId}`);
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  const workers = await createWorkerSet({
    connection,
    namespace: 'default',
    host: { hostId, hostQueue: hostTaskQueue(hostId), workDir },
    eventsFile: path.join(workDir, 'events.jsonl'),
    taskQueue: queue,
    workflowBundle,
    shutdownGraceTime: '2s',
    deployment: { deploymentName, buildId },
  });
  const running = runWorkerSet(workers);
  const target = resolveTemporalTarget({
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_CONFIG_FILE: path.join(workDir, 'none.toml'),
  });
  const current = await promoteWhenRegistered(target, { deploymentName, buildId, promote: true }, `test-${buildId}`);
  let stopped = false;
  return {
    current,
    hostId,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
