// Starts a project workflow, or finds the one that already ran under its id: a project is started once, so a
// second `taskloop schedule` of the same file starts nothing (REJECT_DUPLICATE, even after the first has closed).
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { projectWorkflowId, type ProjectPlan } from '../../domain/project/plan.js';
import type { projectWorkflow } from '../../workflows/project.js';
import { ProjectKey } from '../../workflows/search-attributes.js';

export type ProjectHandle = WorkflowHandle<typeof projectWorkflow>;

/** What the Web UI shows for a project run. */
export function describeProjectRun(plan: ProjectPlan): { staticSummary: string; staticDetails: string } {
  return {
    staticSummary: `project ${plan.project}: ${plan.tasks.length} tasks`,
    staticDetails: `Repository: \`${plan.repo}\`; concurrency ${plan.concurrency}; tasks: ${plan.tasks.map((task) => `\`${task.spec.id}\``).join(', ')}`,
  };
}

export async function startProject(
  client: Client,
  plan: ProjectPlan,
  options: { taskQueue: string },
): Promise<{ handle: ProjectHandle; started: boolean }> {
  const workflowId = projectWorkflowId(plan.project);
  try {
    const handle = await client.workflow.start<typeof projectWorkflow>('projectWorkflow', {
      taskQueue: options.taskQueue,
      workflowId,
      args: [{ plan }],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [{ key: ProjectKey, value: plan.project }],
      ...describeProjectRun(plan),
    });
    return { handle, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      return { handle: client.workflow.getHandle(workflowId), started: false };
    throw error;
  }
}
