// What the project learned, held in its learning workflow so every host reads the same one: the skills with their
// provenance, and the failure history that adaptations draw on. Pure and bounded, so it travels in small payloads.
import type { HistoryEntry } from './adaptations.js';
import { clipHead, type FailureEvent } from './failure-event.js';
import type { Skill } from './skills.js';

// Sized so the learning query's answer stays near 100 KB at worst: 15 skills of at most ~4.5 KB (texts and provenance
// clipped), 60 history records of at most ~0.6 KB.
export const projectLearningLimits = {
  skills: 15,
  history: 60,
  filesPerRecord: 8,
  provenance: 10,
  whenItAppliesChars: 1000,
  whatToDoChars: 1500,
} as const;

/** One failed attempt with a pytest pattern: which task, on which host, touching which files. */
export interface HistoryRecord {
  taskId: string;
  workflowId: string;
  attempt: number;
  files: string[];
  patterns: string[];
  /** The host that ran the attempt. */
  host?: string;
}

export interface ProjectLearning {
  skills: Skill[];
  history: HistoryRecord[];
}

/** Which tasks (workflows) and hosts a skill was learned from. */
export interface SkillProvenance {
  sourceWorkflowIds: string[];
  sourceTaskIds: string[];
  hosts: string[];
}

export function createProjectLearning(): ProjectLearning {
  return { skills: [], history: [] };
}

/** Adds a failed attempt; a re-sent one (same workflow and attempt) is kept once; the oldest drop past the limit. */
export function recordHistory(learned: ProjectLearning, record: HistoryRecord): boolean {
  if (learned.history.some((old) => old.workflowId === record.workflowId && old.attempt === record.attempt))
    return false;
  learned.history.push({ ...record, files: record.files.slice(0, projectLearningLimits.filesPerRecord) });
  if (learned.history.length > projectLearningLimits.history)
    learned.history.splice(0, learned.history.length - projectLearningLimits.history);
  return true;
}

/** The history record of a failure event; none without a pytest pattern (there is nothing to adapt to). */
export function historyRecordOf(event: FailureEvent): HistoryRecord | undefined {
  if (event.pattern === undefined) return undefined;
  return {
    taskId: event.taskId,
    workflowId: event.workflowId,
    attempt: event.attempt,
    files: event.files ?? [],
    patterns: [event.pattern],
    ...(event.host === undefined ? {} : { host: event.host }),
  };
}

/** The failures of the project's other tasks, one entry per task, in the order they first failed. */
export function historyForTask(records: readonly HistoryRecord[], excludeTaskId: string): HistoryEntry[] {
  const byTask = new Map<string, HistoryEntry>();
  for (const record of records) {
    if (record.taskId === excludeTaskId) continue;
    const entry = byTask.get(record.taskId) ?? { taskId: record.taskId, files: [], patterns: [] };
    entry.files = [...new Set([...entry.files, ...record.files])];
    entry.patterns.push(...record.patterns);
    byTask.set(record.taskId, entry);
  }
  return [...byTask.values()];
}

/** The union of two provenances, first seen first; each list keeps its newest entries past the limit. */
export function mergeProvenance(older: Partial<SkillProvenance>, newer: Partial<SkillProvenance>): SkillProvenance {
  const union = (a: readonly string[] = [], b: readonly string[] = []) =>
    [...new Set([...a, ...b])].slice(-projectLearningLimits.provenance);
  return {
    sourceWorkflowIds: union(older.sourceWorkflowIds, newer.sourceWorkflowIds),
    sourceTaskIds: union(older.sourceTaskIds, newer.sourceTaskIds),
    hosts: union(older.hosts, newer.hosts),
  };
}

export interface SkillUpdate {
  id: string;
  pattern: string;
  draft: { whenItApplies: string; whatToDo: string };
  writtenBy: 'model' | 'distilled';
  provenance: SkillProvenance;
  now: string;
}

/**
 * The skill to keep when a group produced `update` and the project may already hold one under its id: provenance is
 * merged; a model's words replace distilled ones, never the reverse; the first creation time stays.
 */
export function mergeSkill(existing: Skill | undefined, update: SkillUpdate): Skill {
  const keepText = existing !== undefined && update.writtenBy === 'distilled' && existing.writtenBy !== 'distilled';
  const text = keepText
    ? { whenItApplies: existing.whenItApplies, whatToDo: existing.whatToDo, writtenBy: existing.writtenBy }
    : { ...update.draft, writtenBy: update.writtenBy };
  return {
    id: update.id,
    pattern: update.pattern,
    whenItApplies: clipHead(text.whenItApplies, projectLearningLimits.whenItAppliesChars),
    whatToDo: clipHead(text.whatToDo, projectLearningLimits.whatToDoChars),
    ...mergeProvenance(existing ?? {}, update.provenance),
    createdAt: existing?.createdAt ?? update.now,
    ...(text.writtenBy === undefined ? {} : { writtenBy: text.writtenBy }),
  };
}

/** Puts a skill among the learned ones in place of the one with its id; past the limit the oldest skill goes. */
export function storeSkill(learned: ProjectLearning, skill: Skill): void {
  const at = learned.skills.findIndex((old) => old.id === skill.id);
  if (at >= 0) {
    learned.skills[at] = skill;
    return;
  }
  learned.skills.push(skill);
  if (learned.skills.length > projectLearningLimits.skills)
    learned.skills.splice(0, learned.skills.length - projectLearningLimits.skills);
}
