// Every message a learning workflow understands, defined once for the workflow, the sender activity, tests and `temporal`.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { FailureEventInput } from '../../domain/learning/failure-event.js';
import type { ProjectLearning } from '../../domain/learning/project-learning.js';
import type { LearningState } from '../../domain/learning/learning-state.js';

/** failure: one failed attempt of a task; sent with signal-with-start so the first failure starts the workflow. */
export const failureSignal = defineSignal<[FailureEventInput]>('failure');

/** What the `state` query shows: the whole state plus the signals waiting to be handled. */
export interface LearningStateView extends LearningState {
  pending: number;
}
export const learningStateQuery = defineQuery<LearningStateView>('state');

/** learning: the project's skills and failure history, read by the context builder on whichever host claims a task. */
export const learningQuery = defineQuery<ProjectLearning>('learning');

/**
 * @deprecated The same answer as {@link learningQuery} under its name before the rename (`temporal workflow query
 * --name memory`), kept for one release; ask `learning`.
 */
export const memoryQuery = defineQuery<ProjectLearning>('memory');

/** The prefix of every learning workflow's id: `learning-<project>-<role>`. */
export const learningWorkflowIdPrefix = 'learning-';

/**
 * @deprecated The prefix of learning workflows started before the rename (`reflection-<project>-<role>`); one still
 * running keeps the project's skills and failure history, so activities/learning/find-learning-workflow.ts goes on
 * using it.
 */
export const reflectionWorkflowIdPrefix = 'reflection-';

/** One learning workflow per project and agent role; the coder's holds what the project learned. */
export function learningWorkflowId(project: string, role: string): string {
  return `${learningWorkflowIdPrefix}${project}-${role}`;
}

/** @deprecated The id a learning workflow of `project` and `role` had before the rename; see learningWorkflowId. */
export function reflectionWorkflowId(project: string, role: string): string {
  return `${reflectionWorkflowIdPrefix}${project}-${role}`;
}
