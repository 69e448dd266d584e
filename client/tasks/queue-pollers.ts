// Is anyone serving the queue? A run waited on with no worker polling its queue would wait forever in silence, so
// `run --wait`, `status` and `watch` ask the server for the queue's pollers (DescribeTaskQueue) and say so.
import type { Client, WorkflowClient, WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import { WorkFailed } from '../cli-errors.js';
import { noReconnect, type Reconnect } from './reconnect.js';

/** A poller not seen for this long is gone: a live worker renews its long poll at least every ~70 s. */
export const POLLER_FRESH_MS = 90_000;
/** How often a waiting command asks again. */
export const POLLER_CHECK_MS = 3_000;
/** After the server was unreachable, its workers need this long to poll again before "no worker" is believed. */
export const POLLER_REGRACE_MS = 20_000;

/** The line a waiting command prints when no worker polls the queue; it names the fix. */
export function noWorkerMessage(taskQueue: string): string {
  return `no worker serves task queue ${taskQueue}: start one with \`taskloop worker\` (TASKLOOP_TASK_QUEUE=${taskQueue})`;
}

/** True when a worker polled the queue's workflow tasks within POLLER_FRESH_MS (server clock vs ours). */
export async function hasLiveWorker(
  client: Client | WorkflowClient,
  taskQueue: string,
  now = Date.now(),
): Promise<boolean> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    // The proto enums are not re-exported by @temporalio/client: 1 is TASK_QUEUE_KIND_NORMAL and TASK_QUEUE_TYPE_WORKFLOW.
    taskQueue: { name: taskQueue, kind: 1 },
    taskQueueType: 1,
  });
  return response.pollers.some((poller) => {
    const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
    return seconds === 0 || now - seconds * 1000 < POLLER_FRESH_MS;
  });
}

/**
 * Runs `work` (waiting on a running workflow) while checking, at once and every few seconds, that a worker serves
 * its queue: says once when none does and once when one comes; keeps waiting either way.
 */
export async function whileCheckingWorker<T>(
  handle: WorkflowHandle,
  say: (line: string) => void,
  work: () => Promise<T>,
  /** The caller's description of the workflow, when it has one: a closed workflow needs no second read. */
  known?: WorkflowExecutionDescription,
  reconnect: Reconnect = noReconnect,
): Promise<T> {
  const description = known && known.status.name !== 'RUNNING' ? known : await reconnect(() => handle.describe());
  if (description.status.name !== 'RUNNING') return work();
  const { taskQueue } = description;
  let missing = false;
  let stopped = false;
  let failedAt = -Infinity;
  const check = async () => {
    const live = await hasLiveWorker(handle.client, taskQueue).catch(() => {
      failedAt = Date.now();
      return true;
    });
    // A restarted server has forgotten the pollers it had; its workers come back within their own backoff.
    if (!live && Date.now() - failedAt < POLLER_REGRACE_MS) return;
    if (stopped || live === !missing) return;
    missing = !live;
    say(missing ? `${noWorkerMessage(taskQueue)}; still waiting` : `a worker now serves task queue ${taskQueue}`);
  };
  void check();
  const timer = setInterval(() => void check(), POLLER_CHECK_MS);
  try {
    const result = await work();
    // The work ended between two checks: a worker served it, so the "no worker" line gets its answer too.
    if (missing && !stopped) say(`a worker now serves task queue ${taskQueue}`);
    return result;
  } finally {
    stopped = true;
    clearInterval(timer);
  }
}

/** For a one-shot read (`status`): a running workflow whose queue no worker serves cannot answer; say why at once. */
export async function assertWorkerServes(
  client: Client,
  command: string,
  description: WorkflowExecutionDescription,
): Promise<void> {
  if (description.status.name !== 'RUNNING' || (await hasLiveWorker(client, description.taskQueue))) return;
  throw new WorkFailed(
    `taskloop ${command}: ${description.workflowId} is running, but ${noWorkerMessage(description.taskQueue)}`,
  );
}
