// What the project workflow returns and shows: the report at the end, and the per-task view its query gives.
import { addTelemetry, emptyTelemetry, summarizeTelemetry } from '../telemetry.js';
import type { TelemetrySummary } from '../telemetry.js';
import { projectStatus } from './project-state.js';
import { toRunTasks } from './to-finished-tasks.js';
import type { ProjectState, ProjectStatus } from './project-state.js';
import type { RunTask } from '../learning/finished-task.js';
import { summarizeProject } from './project-summary.js';
import type { ProjectSummary } from './project-summary.js';
import { toProjectTaskLine, withStateAlias, type ProjectTaskLineWithAlias } from './project-task-line.js';

/** What the project spent, summed over every attempt of every task. */
export interface ProjectSpend {
  attempts: number;
  childRuns: number;
  modelRequests: number;
  inputTokens: number;
  outputTokens: number;
  /** Requests whose tokens are unknown (no usage came back): not in the token counts; absent when none. */
  unmeteredModelRequests?: number;
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
  const summary = summarizeProject({ project: state.project, tasks: state.tasks.map(toProjectTaskLine) });
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
      ...(total.unmeteredModelRequests ? { unmeteredModelRequests: total.unmeteredModelRequests } : {}),
      taskTimeMs: summary.totalDurationMs,
    },
    continuedAsNew: state.continuedAsNew,
    runTasks: toRunTasks(state),
  };
}

export interface ProjectStateView {
  project: string;
  status: ProjectStatus;
  paused: boolean;
  concurrency: number;
  continuedAsNew: number;
  /** Each task's line; `state` repeats `status` for one release (see withStateAlias). */
  tasks: ProjectTaskLineWithAlias[];
}

/** The `state` query's answer: small, without specs or telemetry. */
export function viewProjectState(state: ProjectState): ProjectStateView {
  return {
    project: state.project,
    status: projectStatus(state),
    paused: state.paused,
    concurrency: state.concurrency,
    continuedAsNew: state.continuedAsNew,
    tasks: state.tasks.map((task) => withStateAlias(toProjectTaskLine(task))),
  };
}
