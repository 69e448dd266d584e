// The learning loop's state and every change to it: pure, so the workflow only calls these and the activity.
import type { BufferedFailure, FailureGroup } from './similarity.js';
import { clipHead, failureEventId, type FailureEvent } from './failure-event.js';
import { isLearnableFailure, mayLearn, type LearningConfig } from './gate.js';
import { createProjectLearning, type ProjectLearning } from './project-learning.js';

/** A buffered failure: the event plus the fields grouping needs. */
export type BufferedFailureEvent = FailureEvent & BufferedFailure;

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

export interface LearningErrorRecord {
  message: string;
  sourceWorkflowIds: string[];
  at: string;
}

export interface LearningState {
  project: string;
  role: string;
  buffer: BufferedFailureEvent[];
  /** Ids of failures already taken in (bounded), so a re-sent signal is not counted twice. */
  seenIds: string[];
  skills: WrittenSkillRecord[];
  errors: LearningErrorRecord[];
  received: number;
  /** Failures refused by the learning gate. */
  ignored: number;
  duplicates: number;
  /** Skill-writer calls made so far: the next call's scripted turn. */
  skillWriterCalls: number;
  continuedAsNew: number;
  /** The project's skills (text and provenance) and failure history: what every host reads. */
  learned: ProjectLearning;
}

/**
 * A state as continue-as-new carries it. Runs from before the rename carry what was learned under `memory`, and runs
 * from before it was kept here carry none; both still arrive from workflows running across an upgrade.
 */
export type CarriedLearningState = Omit<LearningState, 'learned'> & {
  learned?: ProjectLearning;
  /** @deprecated Its name before the rename: read it as `learned`. */
  memory?: ProjectLearning;
};

// Sized so the whole state (carried through continue-as-new) stays near 100 KB even with full-length evidence.
export const learningStateLimits = { buffer: 25, seenIds: 200, skills: 50, errors: 20, errorChars: 500 } as const;

export type AcceptVerdict = 'buffered' | 'ignored' | 'duplicate';

export function createLearningState(project: string, role: string): LearningState {
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
    learned: createProjectLearning(),
  };
}

/** The state a continued run goes on from, whichever release carried it. */
export function readCarriedState(carried: CarriedLearningState): LearningState {
  const { memory, learned, ...rest } = carried;
  return { ...rest, learned: learned ?? memory ?? createProjectLearning() };
}

/** Takes one failure in: refused by the gate (or as a failure no skill can help with), a duplicate of one already seen, or buffered (oldest dropped past the limit). */
export function acceptFailure(
  state: LearningState,
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
  pushBounded(state.seenIds, id, learningStateLimits.seenIds);
  pushBounded(state.buffer, { ...event, id }, learningStateLimits.buffer);
  return 'buffered';
}

/** The pattern a group answers: its most common pytest pattern, else its most common failure class. */
export function describeGroupPattern(group: FailureGroup<BufferedFailureEvent>): string {
  const patterns = group.failures.map((f) => f.pattern).filter((p): p is string => p !== undefined && p !== 'unknown');
  return mostCommon(patterns) ?? mostCommon(group.failures.map((f) => f.failureClass)) ?? 'unknown';
}

/** Records a written skill and clears the group's failures so the same pattern does not fire again. */
export function recordSkillWritten(
  state: LearningState,
  group: FailureGroup<BufferedFailureEvent>,
  skill: Omit<WrittenSkillRecord, 'at'>,
  at: string,
): void {
  removeGroup(state, group);
  pushBounded(state.skills, { ...skill, at }, learningStateLimits.skills);
}

/**
 * Records a failed skill generation and clears the group too: the same input would most likely fail the same way,
 * and keeping it would call the skill writer again on every later signal. The pattern fires again if it recurs.
 */
export function recordSkillError(
  state: LearningState,
  group: FailureGroup<BufferedFailureEvent>,
  message: string,
  at: string,
): void {
  removeGroup(state, group);
  pushBounded(
    state.errors,
    { message: clipHead(message, learningStateLimits.errorChars), sourceWorkflowIds: group.workflowIds, at },
    learningStateLimits.errors,
  );
}

/** Records a problem not tied to a group (e.g. an invalid event). */
export function recordProblem(state: LearningState, message: string, at: string): void {
  pushBounded(
    state.errors,
    { message: clipHead(message, learningStateLimits.errorChars), sourceWorkflowIds: [], at },
    learningStateLimits.errors,
  );
}

function removeGroup(state: LearningState, group: FailureGroup<BufferedFailureEvent>): void {
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
