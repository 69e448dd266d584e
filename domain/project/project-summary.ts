// The numbers of a finished (or running) project: per-task lines, counts per status and pass rates.
import type { ProjectTaskLine } from './project-task-line.js';
import { taskRunStatuses } from './scheduling.js';
import type { TaskRunStatus } from './scheduling.js';

export interface ProjectSummary {
  project: string;
  tasks: ProjectTaskLine[];
  total: number;
  counts: Record<TaskRunStatus, number>;
  /** Tasks completed at their first attempt / all tasks (0 when there are none). */
  passRateAtAttempt1: number;
  /** Tasks completed at any attempt / all tasks (0 when there are none). */
  passRate: number;
  totalDurationMs: number;
}

/** Summarises task outcomes; a completed task without `passedAtAttempt` counts as passed at its last attempt. */
export function summarizeProject(input: { project: string; tasks: ProjectTaskLine[] }): ProjectSummary {
  const counts = Object.fromEntries(taskRunStatuses.map((status) => [status, 0])) as Record<TaskRunStatus, number>;
  let firstAttemptPasses = 0;
  let totalDurationMs = 0;
  for (const task of input.tasks) {
    counts[task.status] += 1;
    totalDurationMs += task.durationMs;
    if (task.status === 'COMPLETED' && (task.passedAtAttempt ?? task.attempts) === 1) firstAttemptPasses += 1;
  }
  const total = input.tasks.length;
  const rate = (count: number): number => (total === 0 ? 0 : count / total);
  return {
    project: input.project,
    tasks: input.tasks,
    total,
    counts,
    passRateAtAttempt1: rate(firstAttemptPasses),
    passRate: rate(counts.COMPLETED),
    totalDurationMs,
  };
}
