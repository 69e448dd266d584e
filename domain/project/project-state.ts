// The project workflow's whole state: one record per task plus the project's switches. Plain JSON, so it is
// the query's source, the report's source and what continue-as-new carries.
import type { CoderTelemetry } from '../records.js';
import { taskWorkflowId } from '../task-spec.js';
import type { TaskSpec } from '../task-spec.js';
import type { TaskPhase } from '../task-state.js';
import { emptyTelemetry } from '../telemetry.js';
import type { PlannedMilestone, PlannedTask, ProjectPlan } from './plan.js';
import type { TaskRunStatus } from './scheduling.js';

export interface ProjectTaskRecord {
  id: string;
  milestone: string;
  feature: string;
  dependsOn: string[];
  spec: TaskSpec;
  workflowId: string;
  status: TaskRunStatus;
  /** Child runs started for this task; a retry starts another run of the same workflow id. */
  runs: number;
  /** Attempts over all runs. */
  attempts: number;
  /** Attempts of the latest finished run (live attempts of a running child are not tracked here). */
  attempt?: number;
  /** The attempt, counted over all runs, that passed. */
  passedAtAttempt?: number;
  /** Known once a run has ended ('done'); a running child's live phase is its own `state` query. */
  phase?: TaskPhase;
  /** Workflow time (ISO) of the latest run's start and end, or of the skip/cancel. */
  startedAt?: string;
  endedAt?: string;
  /** Time spent in child runs, summed over runs. */
  durationMs: number;
  failureClass?: string;
  reason?: string;
  /** The hint the next run starts with (set by a retry). */
  hint?: string;
  /** Coder telemetry summed over all attempts of all runs. */
  telemetry: CoderTelemetry;
  /** Scripted/model turns used so far, so a retried run continues after them. */
  turnsConsumed: number;
  /** Top failure-pattern type of each failed attempt that had test patterns, over all runs (report card). */
  patterns?: string[];
  /** Bytes of the passing attempt's review diff (report card compression). */
  acceptedDiffBytes?: number;
  /** Ids of the skills offered to the coder over all attempts, sorted (report card skills). */
  usedSkills?: string[];
}

export interface ProjectState {
  project: string;
  repo: string;
  concurrency: number;
  milestones: PlannedMilestone[];
  tasks: ProjectTaskRecord[];
  paused: boolean;
  cancelRequested: boolean;
  cancelReason?: string;
  /** Set when the project has decided to end; later adds and retries are refused. */
  finished: boolean;
  /** How many times this project has continued as new. */
  continuedAsNew: number;
  /** Set on a run a Temporal Schedule started; suffixes its task workflow ids. */
  runId?: string;
}

/**
 * A task record as a worker of taskloop 0.1 carried it through continue-as-new, with `state` where it has `status`
 * now. Read through {@link readCarriedState}; this alias goes with the release after 0.1, like the JSON one.
 */
export type CarriedTaskRecord = ProjectTaskRecord | (Omit<ProjectTaskRecord, 'status'> & { state: TaskRunStatus });
export type CarriedProjectState = Omit<ProjectState, 'tasks'> & { tasks: CarriedTaskRecord[] };

/** The state a previous run carried, each record with `status` whichever release wrote it; nothing else changes. */
export function readCarriedState(carried: CarriedProjectState): ProjectState {
  return {
    ...carried,
    tasks: carried.tasks.map((record) => {
      if ('status' in record && record.status !== undefined) return record;
      const { state, ...rest } = record as Extract<CarriedTaskRecord, { state: TaskRunStatus }>;
      return { ...rest, status: state };
    }),
  };
}

export type ProjectStatus = 'RUNNING' | 'PAUSED' | 'COMPLETED' | 'CANCELLED';

/** The run id of a scheduled run (the part after `project-<project>-`), or undefined for a plain start. */
export function scheduledRunId(workflowId: string, project: string): string | undefined {
  const prefix = `project-${project}-`;
  if (!workflowId.startsWith(prefix)) return undefined;
  return workflowId.slice(prefix.length).replace(/[^A-Za-z0-9._-]/g, '') || undefined;
}

/** The state of a project that has not started anything yet. */
export function createProjectState(plan: ProjectPlan, runId?: string): ProjectState {
  return {
    ...(runId ? { runId } : {}),
    project: plan.project,
    repo: plan.repo,
    concurrency: plan.concurrency,
    milestones: plan.milestones,
    tasks: plan.tasks.map((task) => createTaskRecord(task, runId)),
    paused: false,
    cancelRequested: false,
    finished: false,
    continuedAsNew: 0,
  };
}

/**
 * Task workflow ids are `task-<project>-<id>`; a run that a Temporal Schedule started (`project-<project>-<time>`)
 * suffixes them with its run id, so every scheduled run has tasks of its own instead of colliding with the last.
 */
export function createTaskRecord(task: PlannedTask, runId?: string): ProjectTaskRecord {
  return {
    id: task.spec.id,
    milestone: task.milestone,
    feature: task.feature,
    dependsOn: task.dependsOn,
    spec: task.spec,
    workflowId: runId ? `${taskWorkflowId(task.spec)}-${runId}` : taskWorkflowId(task.spec),
    status: 'PENDING',
    runs: 0,
    attempts: 0,
    durationMs: 0,
    telemetry: emptyTelemetry(),
    turnsConsumed: 0,
  };
}

/** RUNNING / PAUSED while work may still happen; COMPLETED or CANCELLED once the project has ended. */
export function projectStatus(state: ProjectState): ProjectStatus {
  if (state.cancelRequested) return 'CANCELLED';
  if (state.finished) return 'COMPLETED';
  return state.paused ? 'PAUSED' : 'RUNNING';
}

export function findTask(state: ProjectState, id: string): ProjectTaskRecord {
  const record = state.tasks.find((task) => task.id === id);
  // Ids come from nextActions over these same records, so a miss is a bug, not bad input.
  if (!record) throw new TypeError(`project ${state.project} has no task '${id}'`);
  return record;
}

/** Count of tasks per status, for the Web UI's current details. */
export function describeProgress(state: ProjectState): string {
  const counts = new Map<TaskRunStatus, number>();
  for (const task of state.tasks) counts.set(task.status, (counts.get(task.status) ?? 0) + 1);
  const parts = [...counts].map(([status, count]) => `${count} ${status.toLowerCase()}`);
  return `**${projectStatus(state)}**: ${state.tasks.length} tasks (${parts.join(', ')})`;
}
