// The reflection loop's state and every change to it: pure, so the workflow only calls these and the activity.
import type { BufferedFailure, FailureGroup } from '../similarity.js';
import { clipHead, failureEventId, type FailureEvent } from './failure-event.js';
import { isLearnableFailure, mayLearn, type LearningConfig } from './gate.js';
import { createProjectMemory, type ProjectMemory } from '../memory.js';

/** A buffered failure: the event plus the fields grouping needs. */
export type ReflectionFailure = FailureEvent & BufferedFailure;

export interface WrittenSkillRecord {
  id: string;
  path: string;
  pattern: string;
  sourceWorkflowIds: string[];
  /** Hosts whose failures the skill came from. */
  hosts?: string[];
  /** `distilled` when made without a model (with why); a model-written skill replaces it later. */
  writtenBy?: 'model' | 'distilled';
  distilledBecause?: string;
  at: string;
}

export interface ReflectionErrorRecord {
  message: string;
  sourceWorkflowIds: string[];
  at: string;
}

export interface ReflectionState {
  project: string;
  role: string;
  buffer: ReflectionFailure[];
  /** Ids of failures already taken in (bounded), so a re-sent signal is not counted twice. */
  seenIds: string[];
  skills: WrittenSkillRecord[];
  errors: ReflectionErrorRecord[];
  received: number;
  /** Failures refused by the learning gate. */
  ignored: number;
  duplicates: number;
  /** Skill-writer calls made so far: the next call's scripted turn. */
  skillWriterCalls: number;
  continuedAsNew: number;
  /** The project's skills (text and provenance) and failure history: the one memory every host reads. */
  memory: ProjectMemory;
}

// Sized so the whole state (carried through continue-as-new) stays near 100 KB even with full-length evidence.
export const reflectionLimits = { buffer: 25, seenIds: 200, skills: 50, errors: 20, errorChars: 500 } as const;

export type AcceptVerdict = 'buffered' | 'ignored' | 'duplicate';

export function createReflectionState(project: string, role: string): ReflectionState {
  return {
    project,
    role,
    buffer: [],
    seenIds: [],
    skills: [],
    errors: [],
    received: 0,
    ignored: 0,
    duplicates: 0,
    skillWriterCalls: 0,
    continuedAsNew: 0,
    memory: createProjectMemory(),
  };
}

/** Takes one failure in: refused by the gate (or as a failure no skill can help with), a duplicate of one already seen, or buffered (oldest dropped past the limit). */
export function acceptFailure(
  state: ReflectionState,
  event: FailureEvent,
  learning: LearningConfig,
  options: { learnableOnly?: boolean } = { learnableOnly: true },
): AcceptVerdict {
  state.received++;
  const unlearnable = options.learnableOnly === true && !isLearnableFailure(event.failureClass);
  if (!mayLearn(learning, state.role) || unlearnable) {
    state.ignored++;
    return 'ignored';
  }
  const id = failureEventId(event);
  if (state.seenIds.includes(id)) {
    state.duplicates++;
    return 'duplicate';
  }
  pushBounded(state.seenIds, id, reflectionLimits.seenIds);
  pushBounded(state.buffer, { ...event, id }, reflectionLimits.buffer);
  return 'buffered';
}

/** The pattern a group answers: its most common pytest pattern, else its most common failure class. */
export function describeGroupPattern(group: FailureGroup<ReflectionFailure>): string {
  const patterns = group.failures.map((f) => f.pattern).filter((p): p is string => p !== undefined && p !== 'unknown');
  return mostCommon(patterns) ?? mostCommon(group.failures.map((f) => f.failureClass)) ?? 'unknown';
}

/** Records a written skill and clears the group's failures so the same pattern does not fire again. */
export function recordSkillWritten(
  state: ReflectionState,
  group: FailureGroup<ReflectionFailure>,
  skill: Omit<WrittenSkillRecord, 'at'>,
  at: string,
): void {
  removeGroup(state, group);
  pushBounded(state.skills, { ...skill, at }, reflectionLimits.skills);
}

/**
 * Records a failed skill generation and clears the group too: the same input would most likely fail the same way,
 * and keeping it would call the skill writer again on every later signal. The pattern fires again if it recurs.
 */
export function recordSkillError(
  state: ReflectionState,
  group: FailureGroup<ReflectionFailure>,
  message: string,
  at: string,
): void {
  removeGroup(state, group);
  pushBounded(
    state.errors,
    { message: clipHead(message, reflectionLimits.errorChars), sourceWorkflowIds: group.workflowIds, at },
    reflectionLimits.errors,
  );
}

/** Records a problem not tied to a group (e.g. an invalid event). */
export function recordProblem(state: ReflectionState, message: string, at: string): void {
  pushBounded(
    state.errors,
    { message: clipHead(message, reflectionLimits.errorChars), sourceWorkflowIds: [], at },
    reflectionLimits.errors,
  );
}

function removeGroup(state: ReflectionState, group: FailureGroup<ReflectionFailure>): void {
  const ids = new Set(group.failures.map((f) => f.id));
  state.buffer = state.buffer.filter((f) => !ids.has(f.id));
}

function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | undefined;
  for (const [value, count] of counts) if (best === undefined || count > counts.get(best)!) best = value;
  return best;
}
