// Retrying one task of a running project: which records go back to PENDING, or why the retry is refused.
import type { ProjectState, ProjectTaskRecord } from './project-state.js';
import type { TaskRunStatus } from './scheduling.js';

export type PlanRetryResult = { success: true; data: { reset: string[] } } | { success: false; error: string };

const retryable: ReadonlySet<TaskRunStatus> = new Set(['FAILED', 'CANCELLED', 'SKIPPED']);
const blocking: ReadonlySet<TaskRunStatus> = new Set(['FAILED', 'CANCELLED', 'SKIPPED']);

/**
 * Decides what a retry of `taskId` resets: the task itself and every dependant that was SKIPPED because of it
 * (directly or through other skipped tasks). A SKIPPED task can be retried only once nothing blocks it.
 */
export function planRetry(state: ProjectState, taskId: string): PlanRetryResult {
  if (state.finished)
    return { success: false, error: `project ${state.project} has finished; start it again to run more tasks` };
  if (state.cancelRequested)
    return { success: false, error: `project ${state.project} is cancelled; nothing more will run` };
  const byId = new Map(state.tasks.map((task) => [task.id, task]));
  const task = byId.get(taskId);
  if (!task) {
    const known = state.tasks.map((t) => t.id).join(', ');
    return { success: false, error: `taskId: no task '${taskId}' in project ${state.project} (tasks: ${known})` };
  }
  if (!retryable.has(task.status)) {
    return {
      success: false,
      error: `task '${taskId}' is ${task.status}: only FAILED, CANCELLED or SKIPPED tasks can be retried`,
    };
  }
  const blocker = task.dependsOn.find((dep) => blocking.has(byId.get(dep)?.status ?? 'PENDING'));
  if (blocker !== undefined) {
    return {
      success: false,
      error: `task '${taskId}' waits on '${blocker}', which is ${byId.get(blocker)!.status}; retry '${blocker}' instead (its skipped dependants run again with it)`,
    };
  }
  return { success: true, data: { reset: [taskId, ...findSkippedDependants(state.tasks, taskId)] } };
}

/** Puts the records back to PENDING; the retried task's next run starts with `hint`. */
export function resetForRetry(state: ProjectState, reset: string[], hint?: string): void {
  const ids = new Set(reset);
  for (const task of state.tasks) {
    if (!ids.has(task.id)) continue;
    task.status = 'PENDING';
    for (const key of ['startedAt', 'endedAt', 'failureClass', 'reason', 'hint'] as const) delete task[key];
  }
  const retried = state.tasks.find((task) => task.id === reset[0]);
  if (retried && hint !== undefined && hint.trim() !== '') retried.hint = hint;
}

/** SKIPPED tasks reachable from `taskId` through dependsOn edges, in plan order. */
function findSkippedDependants(tasks: ProjectTaskRecord[], taskId: string): string[] {
  const reached = new Set([taskId]);
  for (let changed = true; changed;) {
    changed = false;
    for (const task of tasks) {
      if (reached.has(task.id) || task.status !== 'SKIPPED') continue;
      if (task.dependsOn.some((dep) => reached.has(dep))) {
        reached.add(task.id);
        changed = true;
      }
    }
  }
  reached.delete(taskId);
  return tasks.filter((task) => reached.has(task.id)).map((task) => task.id);
}
