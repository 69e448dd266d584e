// The numbers of a finished (or running) project: per-task lines, counts per state and pass rates.
import { taskRunStates } from './scheduling.js';
import type { TaskRunState } from './scheduling.js';

export interface TaskRunRecord {
  id: string;
  state: TaskRunState;
  attempts: number;
  /** The attempt that passed, for COMPLETED tasks. */
  passedAtAttempt?: number;
  durationMs: number;
  failureClass?: string;
  reason?: string;
  /** Where the task ran and when (workflow time, ISO), when it ran at all. */
  workflowId?: string;
  startedAt?: string;
  endedAt?: string;
}

export interface TaskSummaryLine {
  id: string;
  status: TaskRunState;
  attempts: number;
  durationMs: number;
  failureClass?: string;
  reason?: string;
  workflowId?: string;
  startedAt?: string;
  endedAt?: string;
}

export interface ProjectSummary {
  project: string;
  tasks: TaskSummaryLine[];
  total: number;
  counts: Record<TaskRunState, number>;
  /** Tasks completed at their first attempt / all tasks (0 when there are none). */
  passRateAtAttempt1: number;
  /** Tasks completed at any attempt / all tasks (0 when there are none). */
  passRate: number;
  totalDurationMs: number;
}

/** Summarises task outcomes; a completed task without `passedAtAttempt` counts as passed at its last attempt. */
export function summarizeProject(input: { project: string; tasks: TaskRunRecord[] }): ProjectSummary {
  const counts = Object.fromEntries(taskRunStates.map((state) => [state, 0])) as Record<TaskRunState, number>;
  let firstAttemptPasses = 0;
  let totalDurationMs = 0;
  const tasks = input.tasks.map((task): TaskSummaryLine => {
    counts[task.state] += 1;
    totalDurationMs += task.durationMs;
    if (task.state === 'COMPLETED' && (task.passedAtAttempt ?? task.attempts) === 1) firstAttemptPasses += 1;
    return {
      id: task.id,
      status: task.state,
      attempts: task.attempts,
      durationMs: task.durationMs,
      ...(task.failureClass === undefined ? {} : { failureClass: task.failureClass }),
      ...(task.reason === undefined ? {} : { reason: task.reason }),
      ...pickDefined(task, ['workflowId', 'startedAt', 'endedAt']),
    };
  });
  const total = input.tasks.length;
  const rate = (count: number): number => (total === 0 ? 0 : count / total);
  return {
    project: input.project,
    tasks,
    total,
    counts,
    passRateAtAttempt1: rate(firstAttemptPasses),
    passRate: rate(counts.COMPLETED),
    totalDurationMs,
  };
}

function pickDefined<T extends object, K extends keyof T>(source: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(
    keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]),
  ) as Partial<Pick<T, K>>;
}
