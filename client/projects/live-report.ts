// A report of a project still running, from its `state` query: the same per-task lines and rates as the final
// report, without the telemetry and spend that only the finished report sums.
import type { ProjectStateView } from '../../domain/project/project-report.js';
import type { ProjectStatus } from '../../domain/project/project-state.js';
import { summarizeProject, type ProjectSummary } from '../../domain/project/project-summary.js';
import type { ProjectTaskLine } from '../../domain/project/project-task-line.js';

export interface LiveProjectReport extends ProjectSummary {
  status: ProjectStatus;
  live: true;
}

/** `now` (ms) measures tasks still running; ended tasks are measured from their start to their end. */
export function buildLiveReport(view: ProjectStateView, now: number): LiveProjectReport {
  const tasks = view.tasks.map(({ state: _alias, ...task }): ProjectTaskLine => {
    const started = task.startedAt ? Date.parse(task.startedAt) : undefined;
    const ended = task.endedAt ? Date.parse(task.endedAt) : task.status === 'RUNNING' ? now : undefined;
    const durationMs = started !== undefined && ended !== undefined && ended >= started ? ended - started : 0;
    return { ...task, durationMs };
  });
  return { ...summarizeProject({ project: view.project, tasks }), status: view.status, live: true };
}
