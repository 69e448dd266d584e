// Who this worker is: a host id that names its own task queue and a work folder for its worktrees and artifacts.
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { stateDir } from '../platform/paths.js';
import { hostTaskQueue } from '../workflows/task-queues.js';

export interface HostIdentity {
  hostId: string;
  hostQueue: string;
  workDir: string;
}

/**
 * Two workers on one machine with separate work folders are separate hosts (their worktrees live apart),
 * so the default id joins the machine name with a short hash of the work folder.
 */
export function resolveHost(env: NodeJS.ProcessEnv = process.env): HostIdentity {
  const workDir = path.resolve(env.TASKLOOP_WORK_DIR ?? path.join(stateDir(env), 'work'));
  const machine =
    os
      .hostname()
      .replace(/[^A-Za-z0-9-]/g, '-')
      .slice(0, 40) || 'host';
  const hostId = env.TASKLOOP_HOST_ID ?? `${machine}-${createHash('sha256').update(workDir).digest('hex').slice(0, 8)}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/.test(hostId)) {
    throw new Error(
      `TASKLOOP_HOST_ID=${JSON.stringify(hostId)} is not a valid host id; use letters, digits, '.', '_' or '-' (at most 81 characters)`,
    );
  }
  return { hostId, hostQueue: hostTaskQueue(hostId), workDir };
}
