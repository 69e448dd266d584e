// Sends a failure to the learning workflow of its project and role, starting that workflow if it is not running.
import type { Client, WorkflowHandleWithSignaledRunId } from '@temporalio/client';
import type { FailureEventInput } from '../../domain/learning/failure-event.js';
import { failureSignal, type LearningWorkflow, type LearningWorkflowInput } from '../../workflows/learning/messages.js';
import { findLearningWorkflow } from './find-learning-workflow.js';

export interface SignalFailureInput {
  /** The queue the learning workflow runs on when this signal starts it (the shared queue). */
  taskQueue: string;
  /** Used only when the workflow is not running yet; a running one keeps the input it started with. */
  workflow: LearningWorkflowInput;
  event: FailureEventInput;
}

/** Signal-with-start of `learning-<project>-<role>` (or of the running one from before the rename) with one event. */
export async function signalFailure(
  client: Client,
  input: SignalFailureInput,
): Promise<WorkflowHandleWithSignaledRunId<LearningWorkflow>> {
  const { project, role } = input.workflow;
  const { workflowId, workflowType } = await findLearningWorkflow(client, project, role);
  return client.workflow.signalWithStart<LearningWorkflow, [FailureEventInput]>(workflowType, {
    workflowId,
    taskQueue: input.taskQueue,
    args: [input.workflow],
    signal: failureSignal,
    signalArgs: [input.event],
    staticSummary: `Learning: ${project} / ${role}`,
  });
}
