// Which workflow holds a project's learning: `learning-<project>-<role>`, unless one started before the rename
// (`reflection-<project>-<role>`, type reflectionWorkflow) is still running. That one holds the skills and failure
// history the hosts learned so far; starting a new one beside it would hide them, so reads and failures go to it
// until it ends (`taskloop clean` ends it only when it holds nothing).
//
// The lookups go to the workflow service itself, not through the workflow client: a missing workflow is the usual
// answer here (no pre-rename one; none yet for a project that never failed), and the client's tracing interceptor
// would record each miss as an error span in every task's trace.
import { isGrpcServiceError, type Client } from '@temporalio/client';
import { learningWorkflowId, reflectionWorkflowId } from '../../workflows/learning/messages.js';

export interface LearningWorkflowRef {
  workflowId: string;
  /** The type to start it with, when a failure's signal-with-start finds it ended. */
  workflowType: 'learningWorkflow' | 'reflectionWorkflow';
}

/** gRPC's NOT_FOUND, and temporal.api.enums.v1.WorkflowExecutionStatus RUNNING (@temporalio/proto is no dependency). */
const NOT_FOUND = 5;
const STATUS_RUNNING = 1;

/** Whether `workflowId` has a run: 'running', 'ended', or 'none' (never started, or its history is gone). */
export async function workflowRunState(client: Client, workflowId: string): Promise<'running' | 'ended' | 'none'> {
  try {
    const { workflowExecutionInfo } = await client.workflowService.describeWorkflowExecution({
      namespace: client.options.namespace,
      execution: { workflowId },
    });
    return workflowExecutionInfo?.status === STATUS_RUNNING ? 'running' : 'ended';
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === NOT_FOUND) return 'none';
    throw error;
  }
}

/** The learning workflow of `project` and `role`: the running one from before the rename, else the new id. */
export async function findLearningWorkflow(
  client: Client,
  project: string,
  role: string,
): Promise<LearningWorkflowRef> {
  const old = reflectionWorkflowId(project, role);
  if ((await workflowRunState(client, old)) === 'running')
    return { workflowId: old, workflowType: 'reflectionWorkflow' };
  return { workflowId: learningWorkflowId(project, role), workflowType: 'learningWorkflow' };
}
