// Every message a learning workflow understands, defined once for the workflow, the sender activity, tests and `temporal`.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { FailureEventInput } from '../../domain/learning/failure-event.js';
import type { ProjectLearning } from '../../domain/learning/project-learning.js';
import type { CarriedLearningState, LearningState } from '../../domain/learning/learning-state.js';

/** A learning workflow's input (its start, and what continue-as-new carries). */
export interface LearningWorkflowInput {
  project: string;
  /** The agent role whose failures this workflow learns from, e.g. `coder`. */
  role: string;
  /** Unused: each host mirrors skills into its own `<workDir>/skills/<project>` (kept so older starts still parse). */
  skillsDir?: string;
  /** Model spec of the skill writer (the task's coder model by default); without one, skills are distilled without a model. */
  skillWriterModel?: string;
  /** Word overlap at which two task descriptions are similar (default 0.5). */
  threshold?: number;
  /** Similar failures needed before a skill is written (default 2). */
  minCount?: number;
  /** Which roles may learn; a refused role's failures are only counted. */
  learning: { enabled: boolean; roles: string[] };
  /** Continue as new after this many handled signals in one run (default 200), or when Temporal suggests it. */
  continueAsNewAfter?: number;
  /** The previous run's state and its unhandled signals (continue-as-new). */
  carried?: { state: CarriedLearningState; pending: unknown[] };
}

/** The learning workflow's signature, for a typed start or signal-with-start without importing the workflow. */
export type LearningWorkflow = (input: LearningWorkflowInput) => Promise<void>;

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
