// The Temporal floor of one passing attempt: the plain script's steps (bench/overhead/plain-run.ts) as three bare
// activities, shaped like taskloop's attempt: the first on the workflow's own queue (taskloop's claim), the other two
// on a host queue (its coder, then its tests with the commit). No state, checks, events or search attributes: what
// any orchestrator of this shape pays Temporal on this server.
import { proxyActivities } from '@temporalio/workflow';
import type { FloorActivities, FloorInput } from './activities.js';

const options = { startToCloseTimeout: '5 minutes', retry: { maximumAttempts: 1 } } as const;

export async function floorAttempt(input: FloorInput): Promise<void> {
  await proxyActivities<FloorActivities>(options).addWorktree(input);
  const host = proxyActivities<FloorActivities>({ ...options, taskQueue: input.hostQueue });
  await host.applyEdit(input);
  await host.testAndCommit(input);
}
