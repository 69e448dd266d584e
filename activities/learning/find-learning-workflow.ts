// Which workflow holds a project's learning: `learning-<project>-<role>`, unless one started before the rename
// (`reflection-<project>-<role>`, type reflectionWorkflow) is still running. That one holds the skills and failure
// history the hosts learned so far; starting a new one beside it would hide them, so reads and failures go to it
// until it ends (`taskloop clean` ends it only when it holds nothing).
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { learningWorkflowId, reflectionWorkflowId } from '../../workflows/learning/messages.js';

export interface LearningWorkflowRef {
  workflowId: string;
  /** The type to start it with, when a failure's signal-with-start finds it ended. */
  workflowType: 'learningWorkflow' | 'reflectionWorkflow';
}

/** The learning workflow of `project` and `role`: the running one from before the rename, else the new id. */
export async function findLearningWorkflow(
  client: Client,
  project: string,
  role: string,
): Promise<LearningWorkflowRef> {
  const old = reflectionWorkflowId(project, role);
  try {
    const { status } = await client.workflow.getHandle(old).describe();
    if (status.name === 'RUNNING') return { workflowId: old, workflowType: 'reflectionWorkflow' };
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
  return { workflowId: learningWorkflowId(project, role), workflowType: 'learningWorkflow' };
}
