// The input a closed task run was started with, read back from its history, so `taskloop retry` can start the
// same task again with the earlier evidence. `describe()` does not return workflow arguments.
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { TaskWorkflowInput } from '../../workflows/task.js';

/**
 * Reads only the first history event (page size 1: a long history is not downloaded) and decodes its input with
 * the client's own data converter and codecs, the same ones that encoded it when the task was started.
 */
export async function readRunInput(
  client: Client,
  execution: { workflowId: string; runId: string },
): Promise<TaskWorkflowInput> {
  const response = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution,
    maximumPageSize: 1,
  });
  const payloads = response.history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads as
    Payload[] | null | undefined;
  if (!payloads?.length)
    throw new Error(`cannot read how ${execution.workflowId} was started: its first history event carries no input`);
  const { payloadConverter, payloadCodecs } = client.workflow.options.loadedDataConverter;
  let decoded = payloads;
  for (const codec of [...payloadCodecs].reverse()) decoded = await codec.decode(decoded);
  const input = payloadConverter.fromPayload<TaskWorkflowInput>(decoded[0] as Payload);
  if (!input || typeof input !== 'object' || !('spec' in input))
    throw new Error(`the input of ${execution.workflowId} is not a task workflow input`);
  return input;
}
