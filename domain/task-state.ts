// The task workflow's state: what the `state` query returns, what the outcome carries, and pure helpers over it.
import type { ReviewState } from './approval.js';
import type { BudgetSpend, Budgets, ModelUsage } from './budgets.js';
import type { TaskEvent } from './events.js';
import type { Adaptation } from './learning/adaptations.js';
import type { FailureCause } from './failure-causes.js';
import type { FailureClass } from './failure-class.js';
import type { TaskLanding } from './landing.js';

export type { TaskLanding } from './landing.js';
import type {
  AttemptSummary,
  CoderResult,
  CoderTelemetry,
  CommitResult,
  JudgeResult,
  ReviewResult,
  TaskNode,
  TestRunResult,
  VerdictUsage,
} from './records.js';
import type { TelemetrySummary } from './telemetry.js';

/**
 * PAUSE_REQUESTED: a pause arrived while a node runs; the task stops (PAUSED) before its next node. AWAITING_APPROVAL:
 * its change is committed and waits for a person's answer (domain/approval.ts).
 */
export type TaskStatus =
  | 'RUNNING'
  | 'PAUSE_REQUESTED'
  | 'PAUSED'
  | 'WAITING_FOR_HINT'
  | 'AWAITING_APPROVAL'
  | 'COMPLETED'
  | 'FAILED'
  | 'CANCELLED';
export type AttemptStatus =
  'RUNNING' | 'PASSED' | 'REWORK_REQUIRED' | 'NEEDS_HINT' | 'HOST_LOST' | 'FAILED' | 'CANCELLED';
export type TaskPhase = TaskNode | 'waiting' | 'done';

export interface AttemptFailure {
  node: TaskNode;
  failureClass: FailureClass;
  reason: string;
  /** The typed cause the class came from (absent in records made before causes). */
  cause?: FailureCause;
}

/** What the attempt keeps of a candidate that lost: enough to show and to price it, not its full test report. */
export interface CandidateRecord {
  candidate: number;
  startedAt: string;
  endedAt: string;
  hostId?: string;
  coder?: Omit<CoderResult, 'changedFiles'> & { changedFiles: string[] };
  coderSpent?: CoderResult['telemetry'];
  /** The test run's outcome, counts and diff reference; its output and cases stay out of history. */
  test?: Pick<TestRunResult, 'outcome' | 'counts' | 'exitCode' | 'durationMs' | 'reason' | 'diff'>;
  failure: AttemptFailure;
}

export interface AttemptRecord {
  attempt: number;
  status: AttemptStatus;
  hostId?: string;
  startedAt: string;
  endedAt?: string;
  /** The landing this attempt's change went to, when the queue sent it back (the next attempt starts on `onto`). */
  landing?: TaskLanding;
  /** The human hint this attempt was given, if any. */
  hint?: string;
  /** The review round this attempt belongs to (domain/approval.ts); absent: the first. */
  round?: number;
  /** The commit the attempt's worktree started from (the base, or the change a reviewer asked to change). */
  baseSha?: string;
  /** What this attempt's context adapted, and why (from earlier attempts and similar tasks). */
  adaptations?: Adaptation[];
  coder?: Omit<CoderResult, 'changedFiles'> & { changedFiles: string[] };
  /**
   * What the coder spent when its node failed without a result (a model server down, a timeout): the last failure's
   * count, which holds the earlier failed runs' too (each run resumes from the saved progress). `coder` wins once set.
   */
  coderSpent?: CoderTelemetry;
  /** What reviewer and judge runs that failed without a verdict spent (a server down, a timeout): one per run. */
  verdictsSpent?: (VerdictUsage & { role: 'reviewer' | 'judge' })[];
  test?: TestRunResult;
  review?: ReviewResult;
  judge?: JudgeResult;
  failure?: AttemptFailure;
  /** Node re-runs spent on environment problems in this attempt. */
  envRetries: number;
  /** The repository's environment the attempt used: built by it (`setupMs` of building) or found (of looking up). */
  environment?: { name: string; built: boolean; setupMs: number };
  /** The model spec the coder used in this attempt (prices its tokens). */
  coderModel?: string;
  /**
   * The candidates this attempt drew before the one its other fields describe, when the task set `samples`
   * (domain/samples.ts): each failed its tests or its coder run, in its own worktree.
   */
  candidates?: CandidateRecord[];
  /** Which candidate the fields above describe (absent: the first, or a task without samples). */
  candidate?: number;
}

/** The budget limits and what the task has spent against them (shown by the state query). */
export interface BudgetStatus {
  limits: Omit<Budgets, 'prices'>;
  spent: BudgetSpend;
}

export interface TaskState {
  workflowId: string;
  taskId: string;
  project: string;
  goal: string;
  status: TaskStatus;
  phase: TaskPhase;
  attempt: number;
  paused: boolean;
  attempts: AttemptRecord[];
  events: TaskEvent[];
  telemetry: TelemetrySummary;
  lastFailure?: AttemptFailure;
  commit?: CommitResult;
  /** Scripted or model turns consumed so far, so later attempts continue after them. */
  turnsConsumed: number;
  /** When a failed task stops accepting `retry` (ISO), while it waits in its retry window. */
  retryWindowEndsAt?: string;
  budget?: BudgetStatus;
  /** A task with `approval: required`: each round's change and the person's answer. */
  review?: ReviewState;
  /** Once ended: why it failed or was cancelled, and what a person should do next. */
  reason?: string;
  recommendation?: FailureClass;
  /** The landing of the task's change (a task with `landOn`): queued, landed, or why it went back or was refused. */
  landing?: TaskLanding;
  /** The coder version the task runs and why (absent in runs started before it was recorded). */
  coderAgent?: CoderAgentChoice;
}

/** The coder version a task runs (undefined: the registry's champion, picked by the worker) and why, in words. */
export interface CoderAgentChoice {
  version?: string;
  why: string;
}

/** What show and status print: "coder-small-text (default for local models)"; the champion named by the attempts. */
export function describeCoderAgent(choice: CoderAgentChoice, attempts: readonly AttemptRecord[]): string {
  const ran = [...attempts].reverse().find((attempt) => attempt.coder?.agent !== undefined)?.coder?.agent;
  const version = choice.version ?? ran?.replace(/^coder\//, '');
  return `${version ?? 'the champion'} (${choice.why})`;
}

/** The choice a spec records (domain/agent-choice.ts): its pinned version and why, or the champion. */
export function coderAgentOfSpec(spec: {
  agents?: { coder?: string };
  agentsChosenBy?: { coder?: string };
}): CoderAgentChoice {
  const version = spec.agents?.coder;
  if (version === undefined) return { why: "the registry's champion" };
  return { version, why: spec.agentsChosenBy?.coder ?? "the task's agents.coder" };
}

export interface TaskOutcome {
  workflowId: string;
  taskId: string;
  project: string;
  status: 'COMPLETED' | 'FAILED' | 'CANCELLED';
  attempts: AttemptRecord[];
  commit?: CommitResult;
  telemetry: TelemetrySummary;
  /** What a person should do next when the task failed (the class of the final failure). */
  recommendation?: FailureClass;
  reason?: string;
  turnsConsumed: number;
  budget?: BudgetStatus;
  review?: ReviewState;
  landing?: TaskLanding;
  coderAgent?: CoderAgentChoice;
}

/** The outcome of an ended task, from its state (a cancelled workflow carries no result: its state query does). */
export function outcomeOfState(state: TaskState): TaskOutcome {
  const status = state.status === 'COMPLETED' || state.status === 'CANCELLED' ? state.status : 'FAILED';
  return {
    workflowId: state.workflowId,
    taskId: state.taskId,
    project: state.project,
    status,
    attempts: state.attempts,
    commit: state.commit,
    telemetry: state.telemetry,
    recommendation: status === 'FAILED' ? state.recommendation : undefined,
    reason: state.reason,
    turnsConsumed: state.turnsConsumed,
    budget: state.budget,
    ...(state.review && { review: state.review }),
    ...(state.landing ? { landing: state.landing } : {}),
    ...(state.coderAgent ? { coderAgent: state.coderAgent } : {}),
  };
}

/** What attempt N+1's coder is told about attempt N. */
export function summarizeAttempt(record: AttemptRecord): AttemptSummary {
  return {
    attempt: record.attempt,
    status: record.status,
    failureClass: record.failure?.failureClass,
    failureReason: record.failure?.reason,
    coderSummary: record.coder?.summary,
    ...(record.coder ? { changedFiles: record.coder.changedFiles } : {}),
    // The review's path rules refuse a change at the test node (its findings are the review's): told as the review's.
    reviewFindings: record.review?.findings ?? record.test?.refused ?? [],
    judgeFindings: record.judge?.findings ?? [],
    test: record.test
      ? {
          counts: record.test.counts,
          stdoutExcerpt: record.test.stdoutExcerpt,
          stderrExcerpt: record.test.stderrExcerpt,
          ...(record.test.ignoredRemoved && { ignoredRemoved: record.test.ignoredRemoved }),
        }
      : undefined,
  };
}

/** Each model-using run's usage so far (coder, reviewer and judge verdicts), for the budget sums. */
export function collectModelUsage(attempts: readonly AttemptRecord[], defaultCoderModel: string): ModelUsage[] {
  return attempts.flatMap((record) => {
    const usages: ModelUsage[] = [];
    // Every candidate's coder run is priced, the losing ones too.
    for (const { modelRequests, inputTokens, outputTokens } of coderTelemetriesOf(record)) {
      usages.push({ modelSpec: record.coderModel ?? defaultCoderModel, modelRequests, inputTokens, outputTokens });
    }
    if (record.review?.modelUsage) usages.push(record.review.modelUsage);
    if (record.judge?.modelUsage) usages.push(record.judge.modelUsage);
    for (const { role: _role, ...spent } of record.verdictsSpent ?? []) usages.push(spent);
    return usages;
  });
}

/** What an attempt's coder spent: its result's telemetry, else what its failed runs carried. */
export function coderTelemetryOf(record: Pick<AttemptRecord, 'coder' | 'coderSpent'>): CoderTelemetry | undefined {
  return record.coder?.telemetry ?? record.coderSpent;
}

/** The coder results of an attempt: its losing candidates' (samples), then the one it kept or ended on. */
export function coderResultsOf(record: AttemptRecord): NonNullable<AttemptRecord['coder']>[] {
  return [...(record.candidates ?? []), record].flatMap((run) => (run.coder ? [run.coder] : []));
}

/** What each coder run of an attempt spent: its losing candidates' (samples), then the one it kept or ended on. */
export function coderTelemetriesOf(record: AttemptRecord): CoderTelemetry[] {
  return [...(record.candidates ?? []), record].flatMap((run) => coderTelemetryOf(run) ?? []);
}

/** The agent versions whose work an attempt holds, for the commit record (e.g. `coder/coder-1`). */
export function agentVersionsOf(record: AttemptRecord): string[] {
  return [record.coder?.agent, record.review?.agent, record.judge?.agent].filter(
    (label): label is string => typeof label === 'string',
  );
}
