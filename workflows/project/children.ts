// The project's child task runs: start one per task, forward pause/resume/cancel to the running ones, and
// record each run's end in the task's record. One run never throws into the project: every end is a record.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  ChildWorkflowFailure,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  ParentClosePolicy,
  startChild,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowIdReusePolicy,
  workflowInfo,
  type ChildWorkflowHandle,
  type SignalDefinition,
} from '@temporalio/workflow';
import type { ProjectState, ProjectTaskRecord } from '../../domain/project/project-state.js';
import { markStarted, recordOutcome, recordRunError } from '../../domain/project/task-record-updates.js';
import { cancelSignal, pauseSignal } from '../messages.js';
import { taskStartSearchAttributes } from '../task/start-attributes.js';
import type { taskWorkflow } from '../task.js';
import { outcomeOfFailure } from '../task/task-failed.js';

type TaskHandle = ChildWorkflowHandle<typeof taskWorkflow>;

export class ProjectChildren {
  private readonly started = new Map<string, TaskHandle>();
  private inFlight = 0;
  /** Child runs that ended during this workflow run (continue-as-new resets it). */
  endedInRun = 0;

  constructor(
    private readonly state: ProjectState,
    private readonly onChange: () => void,
  ) {}

  /** Child runs starting or running. */
  get running(): number {
    return this.inFlight;
  }

  /** Marks the task RUNNING now (so the next decision counts it) and runs it in the background. */
  start(record: ProjectTaskRecord): void {
    const hint = markStarted(record, new Date().toISOString());
    this.inFlight += 1;
    void this.run(record, hint);
  }

  /** Sends a signal to every started child; one that has just closed is skipped. */
  async signalAll<Args extends unknown[]>(signal: SignalDefinition<Args>, ...args: Args): Promise<void> {
    await Promise.all([...this.started].map(([id, handle]) => this.trySignal(id, handle, signal, ...args)));
  }

  /**
   * Cancels every started child: the signal carries the reason into its outcome, the cancel request makes its
   * workflow end Canceled. Both leave in one workflow task, so the child sees them together.
   */
  async cancelAll(reason: string): Promise<void> {
    await Promise.all([...this.started].map(([id, handle]) => this.cancelOne(id, handle, reason)));
  }

  private async cancelOne(id: string, handle: TaskHandle, reason: string): Promise<void> {
    await Promise.all([
      this.trySignal(id, handle, cancelSignal, { reason, requestFollows: true }),
      this.tryCancel(id, handle),
    ]);
  }

  private async tryCancel(id: string, handle: TaskHandle): Promise<void> {
    try {
      await getExternalWorkflowHandle(handle.workflowId, handle.firstExecutionRunId).cancel();
    } catch (error) {
      log.info('could not request cancellation of a task; it has probably just ended', {
        taskId: id,
        error: String(error),
      });
    }
  }

  private async run(record: ProjectTaskRecord, hint: string | undefined): Promise<void> {
    try {
      const handle = await this.startRun(record, hint);
      this.started.set(record.id, handle);
      // A pause or cancel that arrived while the child was starting could not reach it then.
      if (this.state.cancelRequested) await this.cancelOne(record.id, handle, projectCancelReason(this.state));
      else if (this.state.paused) await this.trySignal(record.id, handle, pauseSignal);
      recordOutcome(record, await handle.result(), new Date().toISOString());
    } catch (error) {
      // A FAILED task fails its workflow with TaskFailed, which carries the outcome.
      const outcome = outcomeOfFailure(error);
      if (outcome) recordOutcome(record, outcome, new Date().toISOString());
      else {
        const ended = describeRunError(
          error,
          record.workflowId,
          this.state.cancelRequested ? projectCancelReason(this.state) : undefined,
        );
        recordRunError(record, ended.status, ended.reason, new Date().toISOString());
      }
    } finally {
      this.started.delete(record.id);
      this.inFlight -= 1;
      this.endedInRun += 1;
      this.onChange();
    }
  }

  private startRun(record: ProjectTaskRecord, hint: string | undefined): Promise<TaskHandle> {
    const { spec } = record;
    const rerun = record.runs > 1;
    return startChild<typeof taskWorkflow>('taskWorkflow', {
      workflowId: record.workflowId,
      args: [rerun ? { spec, hint, carried: { attempts: [], turnsConsumed: record.turnsConsumed } } : { spec, hint }],
      taskQueue: workflowInfo().taskQueue,
      // A run the project retries is closed and its outcome recorded, so it may run again. A first start reuses
      // only an id whose earlier run ended without an outcome (failed, terminated); a completed one is reported.
      workflowIdReusePolicy: rerun
        ? WorkflowIdReusePolicy.ALLOW_DUPLICATE
        : WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      // If the project closes (terminated, timed out, cancelled), its tasks wind down cleanly instead of running
      // on unwatched; continue-as-new never closes it with children running (see projectWorkflow).
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      typedSearchAttributes: taskStartSearchAttributes(spec),
      staticSummary: (spec.goal.split('\n')[0] ?? spec.goal).slice(0, 200),
    });
  }

  private async trySignal<Args extends unknown[]>(
    id: string,
    handle: TaskHandle,
    signal: SignalDefinition<Args>,
    ...args: Args
  ): Promise<void> {
    try {
      await handle.signal(signal, ...args);
    } catch (error) {
      log.info('could not signal a task; it has probably just ended', {
        taskId: id,
        signal: signal.name,
        error: String(error),
      });
    }
  }
}

/** The reason a project's cancel gives its tasks (the cancel request itself carries none back). */
export function projectCancelReason(state: ProjectState): string {
  return `project ${state.project} cancelled: ${state.cancelReason ?? 'cancelled'}`;
}

/** How a run that produced no outcome ended; anything but a Temporal failure is a bug and stays thrown. */
function describeRunError(
  error: unknown,
  workflowId: string,
  cancelReason?: string,
): { status: 'FAILED' | 'CANCELLED'; reason: string } {
  if (error instanceof WorkflowExecutionAlreadyStartedError) {
    return {
      status: 'FAILED',
      reason:
        `workflow ${workflowId} already exists and this project did not start it (it is running, or it completed before): ` +
        'wait for it or terminate it, then retry this task (retryTask) to run it under the project',
    };
  }
  if (isCancellation(error))
    return { status: 'CANCELLED', reason: cancelReason ?? `task workflow ${workflowId} was cancelled` };
  if (error instanceof ChildWorkflowFailure) {
    const cause = error.cause;
    if (cause instanceof TerminatedFailure)
      return { status: 'FAILED', reason: `task workflow ${workflowId} was terminated: ${cause.message}` };
    if (cause instanceof TimeoutFailure)
      return { status: 'FAILED', reason: `task workflow ${workflowId} timed out (${cause.timeoutType ?? 'timeout'})` };
    return { status: 'FAILED', reason: `task workflow ${workflowId} failed: ${cause?.message ?? error.message}` };
  }
  throw error;
}
