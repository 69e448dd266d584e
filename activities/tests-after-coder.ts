// The test node run by the coder activity as soon as the coder finishes (CoderInput.thenTests): the attempt then
// needs no test activity and no workflow task between the two; a signal tells the workflow that the tests started, so
// its phase shows `test` while they run. It is only a shortcut: whenever it cannot stand for the test node, the
// coder's result goes back alone and the workflow schedules the test activity as before:
// - a pause was requested while the coder ran (the task's TaskStatus search attribute, which the pause signal sets at
//   once), or a signal is still pending (a workflow task not yet run): the workflow holds at its checkpoint before
//   the tests when it is a pause, as between any two nodes;
// - the run failed (anything but a cancellation): the test activity runs it again with its own retries, so what went
//   wrong is classified at the test node, not at the coder's.
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { log } from '@temporalio/activity';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { commitMessage } from '../domain/commit-message.js';
import type { CoderResult } from '../domain/records.js';
import { testsStartedSignal } from '../workflows/messages.js';
import { TaskStatusKey } from '../workflows/search-attributes.js';
import type { TestAndReviewResult, TestInput, TestsAfterCoder } from './task-activity-types.js';

const tracer = trace.getTracer('taskloop');

export interface TestsAfterCoderInput {
  coder: CoderResult;
  /** The coder activity's input, with its `thenTests`. */
  input: { workflowId: string; attempt: number; worktreePath: string; goal: string; thenTests?: TestsAfterCoder };
  /** The worker's client, to read whether a pause was requested. */
  client: Client;
  /** The test activity's own work (the same function it runs). */
  runTestNode: (input: TestInput) => Promise<TestAndReviewResult>;
  signal?: AbortSignal;
}

/** The test node's result, or undefined when the workflow is to schedule the test activity instead. */
export async function testsAfterCoder(run: TestsAfterCoderInput): Promise<TestAndReviewResult | undefined> {
  const { coder, input } = run;
  const then = input.thenTests;
  if (!then || coder.status !== 'finished') return undefined;
  const workflow = run.client.workflow.getHandle(input.workflowId);
  if (await workflowMustDecide(workflow)) return undefined;
  const { commit, ...tests } = then;
  // The test node's own span, inside the coder's (a no-op while tracing is off), as the test activity's would be.
  return tracer.startActiveSpan('test', { attributes: { 'taskloop.node': 'test' } }, async (span) => {
    // Beside the tests: the phase is shown, never waited for (a lost signal only leaves `code` showing longer).
    const announced = workflow.signal(testsStartedSignal, { attempt: input.attempt }).catch((error: unknown) => {
      log.warn('could not tell the workflow that the tests started', { error: String(error) });
    });
    try {
      return await run.runTestNode({
        ...tests,
        workflowId: input.workflowId,
        attempt: input.attempt,
        worktreePath: input.worktreePath,
        ...(commit ? { commit: { ...commit, message: commitMessage(input.goal, coder.summary) } } : {}),
      });
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      if (run.signal?.aborted) throw error;
      log.warn('the tests after the coder failed to run; the test activity runs them', { error: String(error) });
      return undefined;
    } finally {
      await announced;
      span.end();
    }
  });
}

/**
 * True when the tests must wait for the workflow: a pause is requested or held, or a workflow task is pending (a signal
 * the workflow has not processed yet, perhaps a pause); also true when this cannot be read.
 */
async function workflowMustDecide(workflow: WorkflowHandle): Promise<boolean> {
  try {
    const description = await workflow.describe();
    return (
      description.typedSearchAttributes.get(TaskStatusKey) !== 'RUNNING' || Boolean(description.raw.pendingWorkflowTask)
    );
  } catch (error) {
    log.warn('could not read the task status before the tests; the test activity runs them', { error: String(error) });
    return true;
  }
}
