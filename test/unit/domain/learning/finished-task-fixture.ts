// A finished task of a project run, for report-card and lesson tests: defaults that count for nothing.
import type { RunTask } from '../../../../domain/learning/finished-task.js';

export const task = (taskId: string, status: RunTask['status'], extra: Partial<RunTask> = {}): RunTask => ({
  taskId,
  status,
  attempts: 1,
  durationMs: 0,
  patterns: [],
  acceptedDiffTokens: 0,
  promptTokens: 0,
  ...extra,
});
