// A CLI without a payload key asks, before it starts a workflow or sends an update, whether the workers of the
// target queue encrypt (their identities say so: clear-inputs.ts) and stops before anything is stored if they do.
// A queue no worker polled lately cannot tell: the worker's own refusal at the claim covers that case.
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkflowService } from '@temporalio/client';
import { ClearInputRefused, encryptingKeyId, keylessClientMessage } from './clear-inputs.js';

/** A poller older than this is a worker gone (a live one renews its long poll at least every ~70 s). */
const FRESH_MS = 90_000;

/** The interceptor for a keyless client of `namespace`: each queue is asked once per process. */
export function keylessClientGuard(service: WorkflowService, namespace: string): WorkflowClientInterceptor {
  const asked = new Map<string, Promise<void>>();
  const refuseIfEncrypting = (taskQueue: string) => {
    let answer = asked.get(taskQueue);
    if (!answer) {
      answer = askPollers(service, namespace, taskQueue);
      asked.set(taskQueue, answer);
    }
    return answer;
  };
  return {
    async startWithDetails(input, next) {
      await refuseIfEncrypting(input.options.taskQueue);
      return next(input);
    },
    async signalWithStart(input, next) {
      await refuseIfEncrypting(input.options.taskQueue);
      return next(input);
    },
    async startUpdate(input, next) {
      const described = await service.describeWorkflowExecution({ namespace, execution: input.workflowExecution });
      const taskQueue = described.executionConfig?.taskQueue?.name;
      if (taskQueue) await refuseIfEncrypting(taskQueue);
      return next(input);
    },
  };
}

async function askPollers(service: WorkflowService, namespace: string, taskQueue: string): Promise<void> {
  const response = await service.describeTaskQueue({
    namespace,
    // 1: TASK_QUEUE_KIND_NORMAL and TASK_QUEUE_TYPE_WORKFLOW (the proto enums are not re-exported by the client).
    taskQueue: { name: taskQueue, kind: 1 },
    taskQueueType: 1,
  });
  const now = Date.now();
  for (const poller of response.pollers) {
    const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
    const keyId = encryptingKeyId(poller.identity ?? '');
    if (keyId !== undefined && (seconds === 0 || now - seconds * 1000 < FRESH_MS))
      throw new ClearInputRefused(keylessClientMessage(taskQueue, keyId));
  }
}
