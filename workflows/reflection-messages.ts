// Every message a reflection workflow understands, defined once for the workflow, the sender activity, tests and `temporal`.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { FailureEventInput } from '../domain/learning/reflection/failure-event.js';
import type { ProjectMemory } from '../domain/learning/memory.js';
import type { ReflectionState } from '../domain/learning/reflection/reflection-state.js';

/** failure: one failed attempt of a task; sent with signal-with-start so the first failure starts the workflow. */
export const failureSignal = defineSignal<[FailureEventInput]>('failure');

/** What the `state` query shows: the whole state plus the signals waiting to be handled. */
export interface ReflectionStateView extends ReflectionState {
  pending: number;
}
export const reflectionStateQuery = defineQuery<ReflectionStateView>('state');

/** memory: the project's skills and failure history, read by the context builder on whichever host claims a task. */
export const memoryQuery = defineQuery<ProjectMemory>('memory');

/** One reflection workflow per project and agent role; the coder's holds the project's memory. */
export function reflectionWorkflowId(project: string, role: string): string {
  return `reflection-${project}-${role}`;
}
