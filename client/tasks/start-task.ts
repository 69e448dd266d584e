// Starts a task workflow, or finds the one already running under the same id (a second start is a no-op).
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { taskWorkflowId, type TaskSpec } from '../../domain/task-spec.js';
import type { CarriedEvidence } from '../../workflows/task/task-run.js';
import { describeTrajectoryLink } from '../../workflows/task/run-details.js';
import { taskStartSearchAttributes } from '../../workflows/task/start-attributes.js';
import { SHARED_TASK_QUEUE } from '../../workflows/task-queues.js';
import type { taskWorkflow } from '../../workflows/task.js';

export interface StartTaskOptions {
  taskQueue?: string;
  hint?: string;
  /** Evidence of an earlier closed run, for `taskloop retry` after the retry window: starts a new run of the id. */
  carried?: CarriedEvidence;
}

export async function startTask(
  client: Client,
  spec: TaskSpec,
  options: StartTaskOptions = {},
): Promise<{ handle: WorkflowHandle<typeof taskWorkflow>; started: boolean }> {
  const workflowId = taskWorkflowId(spec);
  try {
    const handle = await client.workflow.start<typeof taskWorkflow>('taskWorkflow', {
      taskQueue: options.taskQueue ?? SHARED_TASK_QUEUE,
      workflowId,
      args: [{ spec, carried: options.carried, hint: options.hint }],
      workflowIdReusePolicy: options.carried
        ? WorkflowIdReusePolicy.ALLOW_DUPLICATE
        : WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: taskStartSearchAttributes(spec, options.carried?.attempts.length),
      staticSummary: (spec.goal.split('\n')[0] ?? spec.goal).slice(0, 200),
      staticDetails: `**Goal**\n\n${spec.goal}\n\nRepository: \`${spec.repo}\` at \`${spec.baseRef}\`; tests: \`${spec.testCommand.join(' ')}\`\n\n${describeTrajectoryLink(workflowId)}`,
    });
    return { handle, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      return { handle: client.workflow.getHandle(workflowId), started: false };
    throw error;
  }
}
