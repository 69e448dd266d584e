// The project's message handlers. Each changes the state synchronously and wakes the scheduling loop; pause,
// resume and cancel are then forwarded to the running children.
import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import { appendTasks, validateAddedTasks } from '../../domain/project/added-tasks.js';
import { viewProjectState } from '../../domain/project/project-report.js';
import type { ProjectState } from '../../domain/project/project-state.js';
import { planRetry, resetForRetry } from '../../domain/project/retry-task.js';
import {
  addTasksUpdate,
  cancelSignal,
  pauseSignal,
  projectStateQuery,
  resumeSignal,
  retryTaskUpdate,
} from '../project-messages.js';
import type { AddTasksRequest, RetryTaskRequest } from '../project-messages.js';
import { projectCancelReason, type ProjectChildren } from './children.js';

export function registerProjectHandlers(state: ProjectState, children: ProjectChildren, wake: () => void): void {
  setHandler(projectStateQuery, () => viewProjectState(state));

  setHandler(pauseSignal, async () => {
    state.paused = true;
    wake();
    await children.signalAll(pauseSignal);
  });
  setHandler(resumeSignal, async () => {
    state.paused = false;
    wake();
    await children.signalAll(resumeSignal);
  });
  setHandler(cancelSignal, async (request) => {
    if (state.cancelRequested || state.finished) return;
    state.cancelRequested = true;
    state.cancelReason = request?.reason ?? 'project cancelled by signal';
    wake();
    await children.cancelAll(projectCancelReason(state));
  });

  setHandler(
    addTasksUpdate,
    (request: AddTasksRequest) => {
      const planned = refuseUnless(validateAddedTasks(state, request?.tasks), 'InvalidTasks');
      appendTasks(state, planned);
      wake();
      return { added: planned.map((task) => task.spec.id) };
    },
    {
      validator: (request: AddTasksRequest) =>
        void refuseUnless(validateAddedTasks(state, request?.tasks), 'InvalidTasks'),
    },
  );

  setHandler(
    retryTaskUpdate,
    (request: RetryTaskRequest) => {
      const { reset } = refuseUnless(planRetry(state, request?.taskId ?? ''), 'RetryRefused');
      resetForRetry(state, reset, request.hint);
      wake();
      return { reset };
    },
    {
      validator: (request: RetryTaskRequest) =>
        void refuseUnless(planRetry(state, request?.taskId ?? ''), 'RetryRefused'),
    },
  );
}

/** The validator and the handler check the same rule: the validator refuses, the handler uses the result. */
function refuseUnless<T>(result: { success: true; data: T } | { success: false; error: string }, type: string): T {
  if (!result.success) throw ApplicationFailure.nonRetryable(result.error, type);
  return result.data;
}
