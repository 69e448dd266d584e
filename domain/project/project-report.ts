// What the project workflow returns and shows: the report at the end, and the per-task view its query gives.
import type { TaskPhase } from '../task-state.js';
import { addTelemetry, emptyTelemetry, summarizeTelemetry } from '../telemetry.js';
import type { TelemetrySummary } from '../telemetry.js';
import { projectStatus } from './project-state.js';
import { toRunTasks } from './to-finished-tasks.js';
import type { ProjectState, ProjectStatus, ProjectTaskRecord } from './project-state.js';
import type { RunTask } from '../learning/finished-task.js';
import { summarizeProject } from './project-summary.js';
import type { ProjectSummary, TaskRunRecord } from './project-summary.js';
import type { TaskRunState } from './scheduling.js';

/** What the project spent, summed over every attempt of every task. */
export interface ProjectSpend {
  attempts: number;
  childRuns: number;
  modelRequests: number;
  inputTokens: number;
  outputTokens: number;
  /** Time in child runs, summed over tasks (not wall time: tasks overlap). */
  taskTimeMs: number;
}

export interface ProjectReport extends ProjectSummary {
  status: ProjectStatus;
  cancelReason?: string;
  telemetry: TelemetrySummary;
  spend: ProjectSpend;
  continuedAsNew: number;
  /** The ended tasks as the learning report card reads them (absent in reports made before it). */
  runTasks?: RunTask[];
}

/** The report card numbers of a project: per-task lines, pass rates, telemetry and spend totals. */
export function buildProjectReport(state: ProjectState): ProjectReport {
  const summary = summarizeProject({ project: state.project, tasks: state.tasks.map(toRunRecord) });
  const total = state.tasks.reduce((sum, task) => addTelemetry(sum, task.telemetry), emptyTelemetry());
  return {
    ...summary,
    status: projectStatus(state),
    ...(state.cancelReason === undefined ? {} : { cancelReason: state.cancelReason }),
    telemetry: summarizeTelemetry(
      state.tasks.map((task) => task.telemetry),
      { tasks: state.tasks.length, acceptedTasks: summary.counts.COMPLETED },
    ),
    spend: {
      attempts: state.tasks.reduce((sum, task) => sum + task.attempts, 0),
      childRuns: state.tasks.reduce((sum, task) => sum + task.runs, 0),
      modelRequests: total.modelRequests,
      inputTokens: total.inputTokens,
      outputTokens: total.outputTokens,
      taskTimeMs: summary.totalDurationMs,
    },
    continuedAsNew: state.continuedAsNew,
    runTasks: toRunTasks(state),
  };
}

function toRunRecord(task: ProjectTaskRecord): TaskRunRecord {
  const optional = {
    passedAtAttempt: task.passedAtAttempt,
    failureClass: task.failureClass,
    reason: task.reason,
    startedAt: task.startedAt,
    endedAt: task.endedAt,
  };
  return {
    id: task.id,
    state: task.state,
    attempts: task.attempts,
    durationMs: task.durationMs,
    workflowId: task.workflowId,
    ...dropUndefined(optional),
  };
}

export interface ProjectTaskView {
  id: string;
  state: TaskRunState;
  workflowId: string;
  dependsOn: string[];
  milestone: string;
  feature: string;
  runs: number;
  attempts: number;
  attempt?: number;
  phase?: TaskPhase;
  startedAt?: string;
  endedAt?: string;
  failureClass?: string;
  reason?: string;
}

export interface ProjectStateView {
  project: string;
  status: ProjectStatus;
  paused: boolean;
  concurrency: number;
  continuedAsNew: number;
  tasks: ProjectTaskView[];
}

/** The `state` query's answer: small, without specs or telemetry. */
export function viewProjectState(state: ProjectState): ProjectStateView {
  return {
    project: state.project,
    status: projectStatus(state),
    paused: state.paused,
    concurrency: state.concurrency,
    continuedAsNew: state.continuedAsNew,
    tasks: state.tasks.map((task) => ({
      id: task.id,
      state: task.state,
      workflowId: task.workflowId,
      dependsOn: task.dependsOn,
      milestone: task.milestone,
      feature: task.feature,
      runs: task.runs,
      attempts: task.attempts,
      ...dropUndefined({
        attempt: task.attempt,
        phase: task.phase,
        startedAt: task.startedAt,
        endedAt: task.endedAt,
        failureClass: task.failureClass,
        reason: task.reason,
      }),
    })),
  };
}

function dropUndefined<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}
