// A keyed worker's check that a task was started with its input encrypted. The codec decrypts what is encrypted and
// passes the rest through, so the workflow cannot tell; the stored start event can: its payloads as the server holds
// them. A clear one means a client without the key started the task, and its goal is readable on the server.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { clearStartInputMessage } from '../platform/codec/clear-inputs.js';

const ENCRYPTED = 'binary/encrypted';

/** Throws a non-retryable `ClearInputRefused` when the running workflow's start input holds a payload in clear. */
export async function refuseClearStartInput(): Promise<void> {
  const { info, client } = Context.current();
  const { workflowExecution, workflowNamespace } = info;
  if (!workflowExecution) return;
  const history = await client.workflowService.getWorkflowExecutionHistory({
    namespace: workflowNamespace,
    execution: { workflowId: workflowExecution.workflowId, runId: workflowExecution.runId },
    maximumPageSize: 1,
  });
  const payloads = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  for (const payload of payloads) {
    const encoding = Buffer.from(payload.metadata?.encoding ?? new Uint8Array(0)).toString();
    if (encoding !== ENCRYPTED)
      throw ApplicationFailure.create({
        type: 'ClearInputRefused',
        message: clearStartInputMessage(encoding || 'none'),
        nonRetryable: true,
      });
  }
}
