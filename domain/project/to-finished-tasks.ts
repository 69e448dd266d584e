// A project's task records as the report card's RunTasks: only tasks that reached an end are graded.
import { runTaskStatuses, type RunTask } from '../learning/finished-task.js';
import type { ProjectTaskRecord } from './project-state.js';

/** Diff bytes per source-equivalent token (the usual ~4 characters a token). */
export const bytesPerToken = 4;

/**
 * One RunTask per ended task (COMPLETED, FAILED, SKIPPED, CANCELLED); PENDING and RUNNING tasks are left out
 * because they have no result to grade yet.
 */
export function toRunTasks(source: { tasks: readonly ProjectTaskRecord[] }): RunTask[] {
  return source.tasks.flatMap((task) => {
    const status = runTaskStatuses.find((s) => s === task.status);
    if (status === undefined) return [];
    const runTask: RunTask = {
      taskId: task.id,
      status,
      attempts: task.attempts,
      durationMs: task.durationMs,
      patterns: [...(task.patterns ?? [])],
      acceptedDiffTokens: status === 'COMPLETED' ? Math.ceil((task.acceptedDiffBytes ?? 0) / bytesPerToken) : 0,
      promptTokens: task.telemetry.inputTokens,
    };
    if (status === 'COMPLETED' && task.passedAtAttempt !== undefined) runTask.passedAtAttempt = task.passedAtAttempt;
    if (task.usedSkills !== undefined) runTask.usedSkills = [...task.usedSkills];
    return [runTask];
  });
}
