// A report of a project still running, from its `state` query: the same per-task lines and rates as the final
// report, without the telemetry and spend that only the finished report sums.
import type { ProjectStateView } from '../../domain/project/project-report.js';
import type { ProjectStatus } from '../../domain/project/project-state.js';
import { summarizeProject, type ProjectSummary } from '../../domain/project/project-summary.js';

export interface LiveProjectReport extends ProjectSummary {
  status: ProjectStatus;
  live: true;
}

/** `now` (ms) measures tasks still running; ended tasks are measured from their start to their end. */
export function buildLiveReport(view: ProjectStateView, now: number): LiveProjectReport {
  const tasks = view.tasks.map((task) => {
    const started = task.startedAt ? Date.parse(task.startedAt) : undefined;
    const ended = task.endedAt ? Date.parse(task.endedAt) : task.state === 'RUNNING' ? now : undefined;
    const durationMs = started !== undefined && ended !== undefined && ended >= started ? ended - started : 0;
    return {
      id: task.id,
      state: task.state,
      attempts: task.attempts,
      durationMs,
      workflowId: task.workflowId,
      ...(task.failureClass === undefined ? {} : { failureClass: task.failureClass }),
      ...(task.reason === undefined ? {} : { reason: task.reason }),
      ...(task.startedAt === undefined ? {} : { startedAt: task.startedAt }),
      ...(task.endedAt === undefined ? {} : { endedAt: task.endedAt }),
    };
  });
  return { ...summarizeProject({ project: view.project, tasks }), status: view.status, live: true };
}
