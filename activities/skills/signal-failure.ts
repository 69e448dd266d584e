// Sends a failure to the reflection workflow of its project and role, starting that workflow if it is not running.
import type { Client, WorkflowHandleWithSignaledRunId } from '@temporalio/client';
import type { FailureEventInput } from '../../domain/learning/reflection/failure-event.js';
import { failureSignal, reflectionWorkflowId } from '../../workflows/reflection-messages.js';
import type { reflectionWorkflow, ReflectionWorkflowInput } from '../../workflows/reflection.js';

export interface SignalFailureInput {
  /** The queue the reflection workflow runs on when this signal starts it (the shared queue). */
  taskQueue: string;
  /** Used only when the workflow is not running yet; a running one keeps the input it started with. */
  workflow: ReflectionWorkflowInput;
  event: FailureEventInput;
}

/** Signal-with-start of `reflection-<project>-<role>` with one failure event. */
export async function signalFailure(
  client: Client,
  input: SignalFailureInput,
): Promise<WorkflowHandleWithSignaledRunId<typeof reflectionWorkflow>> {
  return client.workflow.signalWithStart<typeof reflectionWorkflow, [FailureEventInput]>('reflectionWorkflow', {
    workflowId: reflectionWorkflowId(input.workflow.project, input.workflow.role),
    taskQueue: input.taskQueue,
    args: [input.workflow],
    signal: failureSignal,
    signalArgs: [input.event],
    staticSummary: `Reflection: ${input.workflow.project} / ${input.workflow.role}`,
  });
}
