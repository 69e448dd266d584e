// What the project workflow does next, decided from task statuses alone (called on every change).
import { validatePlanGraph } from './plan.js';
import type { PlanGraphError } from './plan.js';

export const taskRunStatuses = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'SKIPPED', 'CANCELLED'] as const;
export type TaskRunStatus = (typeof taskRunStatuses)[number];

export interface ScheduledTask {
  id: string;
  dependsOn: string[];
  status: TaskRunStatus;
}

export interface NextActions {
  /** PENDING tasks to start now, in plan order. */
  start: string[];
  /** PENDING tasks that can never run, with the dependency that blocks them. */
  skip: { id: string; reason: string }[];
  /** True when no task is PENDING or RUNNING once these actions are applied. */
  done: boolean;
}

const blockingStatuses: ReadonlySet<TaskRunStatus> = new Set(['FAILED', 'SKIPPED', 'CANCELLED']);

/**
 * Decides which tasks to start and which to skip. Starts respect plan order and the concurrency limit
 * (RUNNING tasks count against it); skips cascade through dependants in one call. While paused nothing
 * starts, but skips are still reported because they launch no work.
 */
export function nextActions(input: { tasks: ScheduledTask[]; concurrency: number; paused: boolean }): NextActions {
  const statusOf = new Map(input.tasks.map((task) => [task.id, task.status]));
  const skip: NextActions['skip'] = [];
  const markSkipped = (id: string, reason: string): void => {
    skip.push({ id, reason });
    statusOf.set(id, 'SKIPPED');
  };

  // Repeat until no new skip appears, so a dependant of a task skipped in this call is skipped too.
  for (let changed = true; changed;) {
    changed = false;
    for (const task of input.tasks) {
      if (statusOf.get(task.id) !== 'PENDING') continue;
      const reason = findBlockingReason(task, statusOf);
      if (reason !== undefined) {
        markSkipped(task.id, reason);
        changed = true;
      }
    }
  }

  const start: string[] = [];
  const running = input.tasks.filter((task) => statusOf.get(task.id) === 'RUNNING').length;
  const slots = input.paused ? 0 : Math.max(1, Math.floor(input.concurrency)) - running;
  for (const task of input.tasks) {
    if (start.length >= slots) break;
    if (statusOf.get(task.id) === 'PENDING' && task.dependsOn.every((dep) => statusOf.get(dep) === 'COMPLETED'))
      start.push(task.id);
  }

  const pending = input.tasks.filter((task) => statusOf.get(task.id) === 'PENDING');
  // Nothing running and nothing startable while tasks wait: only a dependency cycle does that; end rather than hang.
  if (!input.paused && running === 0 && start.length === 0) {
    for (const task of pending)
      markSkipped(task.id, `dependency cycle: '${task.id}' waits on tasks that can never complete`);
  }
  const done = start.length === 0 && running === 0 && input.tasks.every((task) => statusOf.get(task.id) !== 'PENDING');
  return { start, skip, done };
}

function findBlockingReason(task: ScheduledTask, statusOf: Map<string, TaskRunStatus>): string | undefined {
  for (const dep of task.dependsOn) {
    const depStatus = statusOf.get(dep);
    if (depStatus === undefined) return `dependency '${dep}' is not in the project`;
    if (blockingStatuses.has(depStatus)) return `dependency '${dep}' is ${depStatus}`;
  }
  return undefined;
}

export type AddTasksResult<T> =
  { success: true; data: { tasks: T[]; order: string[] } } | { success: false; errors: PlanGraphError[] };

/**
 * Checks that tasks added to a running project have new, distinct ids, dependencies that exist (among the
 * existing or the added tasks) and no cycle; on success returns all tasks and a topological order.
 */
export function addTasks<T extends { id: string; dependsOn: string[] }>(existing: T[], added: T[]): AddTasksResult<T> {
  const existingIds = new Set(existing.map((task) => task.id));
  const firstAdded = new Map<string, number>();
  const errors: PlanGraphError[] = [];
  added.forEach((task, index) => {
    const first = firstAdded.get(task.id);
    const at = { kind: 'duplicate', taskId: task.id, index } as const;
    if (existingIds.has(task.id)) {
      errors.push({ ...at, message: `task '${task.id}' is already in the project; choose a new id` });
    } else if (first !== undefined) {
      const message = `duplicate task id '${task.id}' among the added tasks (first at index ${first}, again at index ${index})`;
      errors.push({ ...at, firstIndex: first, message });
    } else {
      firstAdded.set(task.id, index);
    }
  });
  const fresh = added.filter((task, index) => firstAdded.get(task.id) === index);
  const all = [...existing, ...fresh];
  const graph = validatePlanGraph(all, { container: 'the project' });
  // Report graph errors by index within `added`, the list the caller sent.
  if (!graph.success)
    errors.push(...graph.errors.map((error) => ({ ...error, index: added.indexOf(all[error.index]!) })));
  if (errors.length > 0 || !graph.success) return { success: false, errors };
  return { success: true, data: { tasks: all, order: graph.order } };
}
