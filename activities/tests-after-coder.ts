// The test node run by the coder activity as soon as the coder finishes (CoderInput.thenTests): the attempt then
// needs no test activity and no workflow task between the two. It is only a shortcut: whenever it cannot stand for
// the test node, the coder's result goes back alone and the workflow schedules the test activity as before:
// - a pause was requested while the coder ran (the task's TaskStatus search attribute, which the pause signal sets at
//   once), or a signal is still pending (a workflow task not yet run): the workflow holds at its checkpoint before
//   the tests when it is a pause, as between any two nodes. The task's description is read while the run is set up
//   and the change checked, and the command starts only on its yes (RunTestsInput.mayStart);
// - the run failed (anything but a cancellation): the test activity runs it again with its own retries, so what went
//   wrong is classified at the test node, not at the coder's.
// A run that lasts tells the workflow (the testsStarted signal), so its phase shows `test` while it runs. A signal
// costs a workflow task and 4 history events, so a shorter run (most suites of a small task) is not announced: the
// workflow records its phase change afterwards, at the start time the result carries.
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { log } from '@temporalio/activity';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { commitMessage } from '../domain/commit-message.js';
import type { CoderResult } from '../domain/records.js';
import { testsStartedSignal } from '../workflows/messages.js';
import { TaskStatusKey } from '../workflows/search-attributes.js';
import type { TestedWithCoder, TestAndReviewResult, TestInput, TestsAfterCoder } from './task-activity-types.js';
import { TestsHeld, type HeldTestRun } from './tests/index.js';
import { testRunCancelled } from './tests/run-tests.js';

const tracer = trace.getTracer('taskloop');

/** How long the tests run before the workflow is told (people see the phase change; alerts wait longer). */
export const ANNOUNCE_TESTS_AFTER_MS = 2_000;

export interface TestsAfterCoderInput {
  coder: CoderResult;
  /** The coder activity's input, with its `thenTests`. */
  input: { workflowId: string; attempt: number; worktreePath: string; goal: string; thenTests?: TestsAfterCoder };
  /** The worker's client, to read whether a pause was requested and to announce a long run. */
  client: Client;
  /** The test activity's own work (the same function it runs); it throws TestsHeld when `mayStart` says no. */
  runTestNode: (input: TestInput, mayStart: Promise<boolean>, prepared?: HeldTestRun) => Promise<TestAndReviewResult>;
  /** The node's run, started held as the coder started (testNodeInput, TestNode.prepare); the node decides it. */
  prepared?: HeldTestRun;
  signal?: AbortSignal;
  /** Default ANNOUNCE_TESTS_AFTER_MS. */
  announceAfterMs?: number;
}

/** The test node's result and when its tests started, or undefined when the workflow is to schedule the test activity. */
export async function testsAfterCoder(run: TestsAfterCoderInput): Promise<TestedWithCoder | undefined> {
  const { coder, input } = run;
  const node = testNodeInput(input, coder.summary);
  if (!node || coder.status !== 'finished') return undefined;
  const workflow = run.client.workflow.getHandle(input.workflowId);
  const mayStart = workflowMustDecide(workflow).then((mustDecide) => !mustDecide);
  // The test node's own span, inside the coder's (a no-op while tracing is off), as the test activity's would be.
  return tracer.startActiveSpan('test', { attributes: { 'taskloop.node': 'test' } }, async (span) => {
    const announcement = announceLongRun(workflow, input.attempt, mayStart, run.announceAfterMs);
    try {
      const tested = await run.runTestNode(node, mayStart, run.prepared);
      return { tested, testsStartedAt: await announcement.startedAt };
    } catch (error) {
      // Cancelled: the activity ends as cancelled, whatever the run was doing (held, too).
      if (run.signal?.aborted) throw error instanceof TestsHeld ? testRunCancelled(run.signal) : error;
      if (error instanceof TestsHeld) {
        span.setAttribute('taskloop.held', true);
        return undefined;
      }
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      log.warn('the tests after the coder failed to run; the test activity runs them', { error: String(error) });
      return undefined;
    } finally {
      await announcement.stop();
      span.end();
    }
  });
}

/**
 * The test node's input from the coder activity's (undefined without `thenTests`). Without the coder's summary it has
 * no commit message: enough to start its run (TestNode.prepare), which the message does not change.
 */
export function testNodeInput(input: TestsAfterCoderInput['input'], coderSummary?: string): TestInput | undefined {
  const then = input.thenTests;
  if (!then) return undefined;
  const { commit, ...tests } = then;
  return {
    ...tests,
    workflowId: input.workflowId,
    attempt: input.attempt,
    worktreePath: input.worktreePath,
    ...(commit ? { commit: { ...commit, message: commitMessage({ ...input, summary: coderSummary }) } } : {}),
  };
}

/**
 * Once the tests may start: their start time, and a signal to the workflow when they are still running after
 * `afterMs`. `stop` cancels a signal not yet sent and waits for one on its way (a lost one only leaves `code` showing).
 */
function announceLongRun(workflow: WorkflowHandle, attempt: number, mayStart: Promise<boolean>, afterMs?: number) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let sent: Promise<void> | undefined;
  const startedAt = mayStart.then((yes) => {
    const at = Date.now();
    if (yes && !stopped) {
      timer = setTimeout(() => {
        sent = workflow.signal(testsStartedSignal, { attempt, startedAt: at }).catch((error: unknown) => {
          log.warn('could not tell the workflow that the tests started', { error: String(error) });
        });
      }, afterMs ?? ANNOUNCE_TESTS_AFTER_MS);
    }
    return at;
  });
  return {
    startedAt,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      // Nothing the activity started outlives it: the status read, then a signal on its way.
      await startedAt;
      clearTimeout(timer);
      await sent;
    },
  };
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
