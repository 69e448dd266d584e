// Every message a project workflow understands, defined once for the workflow, the CLI, tests and `temporal` alike.
// pause, resume and cancel have the same names and arguments as the task workflow's, so one CLI verb serves both.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { PlannedTask } from '../domain/project/plan.js';
import type { ProjectStateView } from '../domain/project/project-report.js';

/** pause: start no new task, and pause the running ones at their next node. resume undoes it. */
export { pauseSignal, resumeSignal } from './messages.js';
/** cancel: start nothing more, mark pending tasks CANCELLED, cancel running ones; the project then ends. */
export { cancelSignal } from './messages.js';

export interface AddTasksRequest {
  /** Tasks as in a tasks file; `spec.project` and `spec.repo` may be left out (the project's are used). */
  tasks: PlannedTask[];
}
export interface AddTasksAccepted {
  added: string[];
}
/** Add tasks while the project runs; refused with every problem listed (bad spec, duplicate id, unknown dependency, cycle). */
export const addTasksUpdate = defineUpdate<AddTasksAccepted, [AddTasksRequest]>('addTasks');

export interface RetryTaskRequest {
  taskId: string;
  /** Guidance for the coder in the new run's first attempt. */
  hint?: string;
}
export interface RetryTaskAccepted {
  /** The task and the skipped dependants that go back to PENDING with it. */
  reset: string[];
}
/** Run a FAILED, CANCELLED or SKIPPED task again as a fresh child run; its skipped dependants are reset too. */
export const retryTaskUpdate = defineUpdate<RetryTaskAccepted, [RetryTaskRequest]>('retryTask');

export const projectStateQuery = defineQuery<ProjectStateView>('state');
