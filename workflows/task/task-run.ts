// The state of one task run and everything that publishes it: the state query, search attributes, current
// details in the Web UI, and events (kept in state and appended to the event sink).
import {
  ApplicationFailure,
  deprecatePatch,
  patched,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
  type CancellationScope,
} from '@temporalio/workflow';
import {
  coderAllowance,
  findExhaustedBudget,
  resolveBudgets,
  sumSpend,
  type Budgets,
  type BudgetSpend,
} from '../../domain/budgets.js';
import { roundStartOf } from '../../domain/approval.js';
import { createTaskEvent, type TaskEvent, type TaskEventType } from '../../domain/events.js';
import type { TaskSpec } from '../../domain/task-spec.js';
import {
  coderAgentOfSpec,
  coderTelemetriesOf,
  collectModelUsage,
  type AttemptRecord,
  type TaskPhase,
  type TaskState,
  type TaskStatus,
} from '../../domain/task-state.js';
import { summarizeTelemetry } from '../../domain/telemetry.js';
import {
  AttemptKey,
  FailureClassKey,
  FailurePatternKey,
  PhaseKey,
  ProjectKey,
  TaskIdKey,
  TaskStatusKey,
} from '../search-attributes.js';
import type { VerdictModelChoice } from '../../activities/task-activities.js';
import { eventSinks } from './proxies.js';
import { observePhase } from '../metrics.js';
import { describeRunDetails } from './run-details.js';

/**
 * The patch that decided a run's path at its start (the claim a local activity, each node one activity, events
 * through the worker's sink), retired: every run takes that path, the branches of runs started before it are gone
 * (docs/architecture.md, "Changing workflow code"). Deprecated, not yet removed, so histories that carry its marker
 * and runs still open on it replay; remove the call in the release after this one.
 */
export const TASK_PATH_PATCH = 'task-path-decided-at-start';

/**
 * The patch after which a test node that times out again after one re-run is the code's fault (a new attempt), not
 * an environment problem re-run up to its limit (domain/repeated-timeout.ts). Asked at the run's start, before any
 * local activity: on replay the SDK learns of a marker only when the workflow task that recorded it begins
 * (docs/architecture.md, "Changing workflow code").
 */
export const HANG_IS_CODE_PATCH = 'repeated-test-timeout-is-code';

/**
 * The patch after which each decision is taken where a reader looks for it: a change the review's path rules refused
 * fails the test node with that finding (before it, the test node passed it on for the review to refuse). Asked at
 * the run's start, as HANG_IS_CODE_PATCH is.
 */
export const DECISIONS_IN_WORKFLOW_PATCH = 'decisions-in-workflow';

export interface CarriedEvidence {
  attempts: AttemptRecord[];
  turnsConsumed: number;
}

export class TaskRun {
  readonly state: TaskState;
  cancelRequested = false;
  cancelReason?: string;
  /** The cancel signal said a workflow cancel request follows it (see `CancelRequest`). */
  cancelRequestFollows = false;
  /** A `retry` update arrived; consumed when the next attempt starts. */
  retryRequested = false;
  pendingHint?: string;
  /** The commit the next attempts start from instead of the spec's baseRef: the target's head a landing went back on. */
  baseOverride?: string;
  /** Cancelled by the cancel signal, so the running node stops at once. */
  attemptScope?: CancellationScope;
  private eventSeq = 0;
  /** Events kept in state but not yet appended to the sink: they travel together at the next flush. */
  private pendingEvents: TaskEvent[] = [];
  /** The attempt the phase was last set in: until the new attempt's first node, its phase is the old attempt's. */
  private phaseAttempt = -1;
  /** Search-attribute values as last upserted (or set at start), so an upsert carries only what changed. */
  private readonly upserted = new Map<string, unknown>();

  /** Started since HANG_IS_CODE_PATCH: a test node timing out again after a re-run is the code's fault. */
  readonly repeatedTimeoutIsCode: boolean;
  /** Started since DECISIONS_IN_WORKFLOW_PATCH: a refused change fails the test node. */
  readonly decidesInWorkflow: boolean;

  constructor(
    readonly spec: TaskSpec,
    carried?: CarriedEvidence,
  ) {
    deprecatePatch(TASK_PATH_PATCH);
    this.repeatedTimeoutIsCode = patched(HANG_IS_CODE_PATCH);
    this.decidesInWorkflow = patched(DECISIONS_IN_WORKFLOW_PATCH);
    const attempts = carried?.attempts ?? [];
    this.state = {
      workflowId: workflowInfo().workflowId,
      taskId: spec.id,
      project: spec.project,
      goal: spec.goal,
      status: 'RUNNING',
      phase: 'claim',
      attempt: attempts.length,
      paused: false,
      attempts,
      events: [],
      telemetry: summarizeTelemetry([], { tasks: 1, acceptedTasks: 0 }),
      turnsConsumed: carried?.turnsConsumed ?? 0,
      coderAgent: coderAgentOfSpec(spec),
    };
    // Ten ids an attempt, and one more for each candidate it set aside (its TEST_FAILED): ids stay unique across runs.
    this.eventSeq = attempts.reduce((seq, record) => seq + 10 + (record.candidates?.length ?? 0), 0);
    // The client sets the first values at start (see start-attributes.ts): the first attempt needs no upsert of its own.
    for (const key of [TaskIdKey, ProjectKey, PhaseKey, TaskStatusKey, AttemptKey])
      this.upserted.set(key.name, workflowInfo().typedSearchAttributes.get(key));
    this.publish();
  }

  get currentAttempt(): AttemptRecord {
    const record = this.state.attempts.at(-1);
    if (!record) throw ApplicationFailure.nonRetryable('no attempt has started', 'TaskloopBug');
    return record;
  }

  beginAttempt(): AttemptRecord {
    const record: AttemptRecord = {
      attempt: this.state.attempts.length + 1,
      status: 'RUNNING',
      startedAt: new Date().toISOString(),
      envRetries: 0,
    };
    if (this.pendingHint) record.hint = this.pendingHint;
    const round = roundStartOf(this.state.review)?.round;
    if (round !== undefined) record.round = round;
    this.pendingHint = undefined;
    this.retryRequested = false;
    this.state.attempts.push(record);
    this.state.attempt = record.attempt;
    this.setStatus(this.state.paused ? 'PAUSE_REQUESTED' : 'RUNNING');
    return record;
  }

  /** `at`: when the phase began, if not now (epoch ms; the tests the coder activity ran report their start). */
  setPhase(phase: TaskPhase, at?: number): void {
    observePhase(this.state, phase, at);
    this.state.phase = phase;
    this.phaseAttempt = this.state.attempt;
    this.publish();
  }

  setStatus(status: TaskStatus): void {
    this.state.status = status;
    this.publish();
  }

  refreshTelemetry(): void {
    const telemetry = this.state.attempts.flatMap(coderTelemetriesOf);
    this.state.telemetry = summarizeTelemetry(telemetry, {
      tasks: 1,
      acceptedTasks: this.state.status === 'COMPLETED' ? 1 : 0,
    });
    this.refreshBudget();
  }

  /** Specs started before budgets existed carry none: they get the defaults. */
  get budgets(): Budgets {
    return resolveBudgets(this.spec.budgets as Budgets | undefined);
  }

  /** Recomputes what the task has spent (all attempts, this run's wall time) into `state.budget`. */
  refreshBudget(): BudgetSpend {
    const { prices, ...limits } = this.budgets;
    const wallTimeMs = Date.now() - workflowInfo().startTime.getTime();
    const spent = sumSpend(collectModelUsage(this.state.attempts, this.spec.models.coder), prices, wallTimeMs);
    this.state.budget = { limits, spent };
    return spent;
  }

  /** Why no further model step may run (`budget exhausted: ...`), or undefined while every budget lasts. */
  exhaustedBudget(): string | undefined {
    return findExhaustedBudget(this.budgets, this.refreshBudget());
  }

  /** The reviewer's or judge's model for this attempt, or undefined when the spec sets none for the role. */
  verdictModel(role: 'reviewer' | 'judge'): VerdictModelChoice | undefined {
    const modelSpec = this.spec.models[role];
    if (!modelSpec) return undefined;
    // Scripted models continue after the turns earlier attempts used.
    const startTurn = this.state.attempts.reduce(
      (sum, record) => sum + ((role === 'reviewer' ? record.review : record.judge)?.modelUsage?.modelRequests ?? 0),
      0,
    );
    return { modelSpec, agentVersion: this.spec.agents?.[role], startTurn, ...this.spec.modelOptions?.[role] };
  }

  /** What the next coder run may spend with `modelSpec`. */
  coderAllowance(modelSpec: string) {
    return coderAllowance(this.budgets, this.refreshBudget(), modelSpec, Date.now());
  }

  /** Keeps the event in state; the next `flush` appends it to the sink, with the events emitted since. */
  emit(type: TaskEventType, data: Record<string, unknown>): void {
    const base = {
      workflowId: this.state.workflowId,
      taskId: this.state.taskId,
      project: this.state.project,
      attempt: this.state.attempt,
    };
    const event = createTaskEvent(type, base, data as never, new Date().toISOString(), ++this.eventSeq);
    this.state.events.push(event);
    this.pendingEvents.push(event);
  }

  /** Hands the pending events to the worker's event sink, if there are any. */
  async flushEvents(): Promise<void> {
    const events = this.pendingEvents;
    if (events.length === 0) return;
    this.pendingEvents = [];
    eventSinks.taskEvents.record(events);
  }

  /** Before the workflow waits: search attributes and events go out (the attributes as one upsert). */
  async flush(): Promise<void> {
    this.flushSearchAttributes();
    await this.flushEvents();
  }

  /**
   * The Web UI's current details follow every phase and status change (they live in the worker, not the history).
   * The first line is what the list cannot show: the task's own status, its phase and the attempt that phase is of.
   */
  private publish(): void {
    setCurrentDetails(describeRunDetails(this.state, this.phaseAttempt));
  }

  /**
   * One upsert (one history event) of what changed since the last: called before each activity that starts a
   * workflow task's wait, before sleeps and conditions, and by message handlers, so a workflow task has at most one.
   */
  flushSearchAttributes(): void {
    const { phase, status, attempt, lastFailure } = this.state;
    const completed = status === 'COMPLETED';
    const pattern = [...this.state.attempts].reverse().find((record) => record.test?.patterns?.length)?.test
      ?.patterns?.[0]?.type;
    const wanted = [
      { key: TaskIdKey, value: this.spec.id },
      { key: ProjectKey, value: this.spec.project },
      { key: PhaseKey, value: phase },
      { key: TaskStatusKey, value: status },
      { key: AttemptKey, value: attempt },
      // Search attributes say the present: a completed task has no failure class or pattern (its attempts keep them).
      ...(completed
        ? [{ key: FailureClassKey, value: null }]
        : lastFailure
          ? [{ key: FailureClassKey, value: lastFailure.failureClass }]
          : []),
      ...(completed
        ? [{ key: FailurePatternKey, value: null }]
        : pattern
          ? [{ key: FailurePatternKey, value: pattern }]
          : []),
    ];
    const changed = wanted.filter(({ key, value }) => this.upserted.get(key.name) !== value);
    if (changed.length === 0) return;
    for (const { key, value } of changed) this.upserted.set(key.name, value);
    upsertSearchAttributes(changed as Parameters<typeof upsertSearchAttributes>[0]);
  }
}
