// The report card of a project run: grade, pass rates, time, failure patterns, trends, actions, lessons.
import { deriveLessons } from './lessons.js';
import type { Lesson } from './lessons.js';
import { countPatterns, mean, median, ratio } from './finished-task.js';
import type { RunTask } from './finished-task.js';

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';
export type TrendDirection = 'UP' | 'DOWN' | 'STABLE';

export interface Trend {
  direction: TrendDirection;
  /** current − previous (0 without a previous run). */
  delta: number;
  previous?: number;
}

export interface SkillGroupStats {
  tasks: number;
  /** Completed over tasks that reached a verdict (completed or failed); 0 when none did. */
  passRate: number;
}

export interface ReportCard {
  tasks: { total: number; completed: number; failed: number; skipped: number; cancelled: number };
  /** completed / total. */
  fidelity: number;
  /** Tasks completed at attempt 1 / total. */
  passRateAt1: number;
  /** Tasks completed by attempt 2 / total. */
  passRateAt2: number;
  /** completed / (completed + failed): how often a task that ran to a verdict passed. */
  passRate: number;
  /** Over tasks that ran (all but SKIPPED). */
  meanDurationMs: number;
  medianDurationMs: number;
  patterns: { pattern: string; count: number; share: number }[];
  novel: { count: number; taskIds: string[] };
  /** Total accepted diff tokens / total prompt tokens (0 without prompt tokens): shown with its trend, not graded. */
  compression: number;
  grade: Grade;
  trends: { fidelity: Trend; passRateAt1: Trend; compression: Trend };
  /** The fixed action for the dominant (most frequent) pattern; empty when nothing failed. */
  improvementActions: { pattern: string; action: string }[];
  skills: { withSkill: SkillGroupStats; withoutSkill: SkillGroupStats };
  lessons: Lesson[];
}

/** The metrics a trend compares; any earlier card (even an older shape) that has them will do. */
export type PreviousCard = Pick<ReportCard, 'fidelity' | 'passRateAt1' | 'compression'>;

/** Changes within ±0.05 (inclusive) are STABLE; the epsilon keeps 0.85 − 0.8 from reading as 0.05000000000000004. */
export const trendThreshold = 0.05;
const epsilon = 1e-9;

/**
 * The grade, from how many tasks completed (fidelity), how many at their first attempt, and whether a failure of an
 * unknown pattern appeared; thresholds inclusive (docs/learning.md). Compression is not graded: the ratio of diff to
 * prompt tokens says nothing of whether the work was right, and graded a flawless run C.
 */
export function gradeRun(fidelity: number, passRateAt1: number, novelCount: number): Grade {
  if (fidelity >= 0.9 && passRateAt1 >= 0.75 && novelCount === 0) return 'A';
  if (fidelity >= 0.75 && passRateAt1 >= 0.5) return 'B';
  if (fidelity >= 0.6) return 'C';
  if (fidelity >= 0.4) return 'D';
  return 'F';
}

/** UP or DOWN when the metric moved by more than 0.05; STABLE otherwise or without a previous value. */
export function trendOf(current: number, previous?: number): Trend {
  if (previous === undefined) return { direction: 'STABLE', delta: 0 };
  const delta = current - previous;
  const direction = delta > trendThreshold + epsilon ? 'UP' : delta < -(trendThreshold + epsilon) ? 'DOWN' : 'STABLE';
  return { direction, delta, previous };
}

export const improvementActionByPattern: Record<string, string> = {
  cross_dep:
    'Order tasks so that modules are built before the tasks that import them, and give the coder the dependency context from attempt 1.',
  missing_impl:
    "Name in each goal the functions, classes and attributes the tests expect to exist, and include their modules' source from attempt 1.",
  wrong_constant:
    'Quote the expected literal values from the tests in the task goals, and prioritise constants from attempt 1.',
  api_mismatch:
    'State the exact signatures the tests call in each task goal (or its contracts) and fix signatures before behaviour.',
  test_infra:
    'Fix the test scaffolding (tests package, conftest, fixtures, helper modules) in a task of its own before the feature tasks.',
  complex_behavior: 'Split complex tasks into smaller ones with fewer contracts and fewer tests each.',
  unknown: 'Read the logs of the novel failures, name their pattern, and add a rule for it to the classifier.',
};
const fallbackAction = 'Review the failures of this pattern and add a strategy for it to the adaptations.';

/** Builds the report card of a run, with trends against the previous run's card when given. */
export function buildReportCard(tasks: readonly RunTask[], previous?: PreviousCard): ReportCard {
  const count = (status: RunTask['status']): number => tasks.filter((t) => t.status === status).length;
  const completed = count('COMPLETED');
  const failed = count('FAILED');
  const total = tasks.length;
  const passedBy = (attempt: number): number =>
    tasks.filter((t) => t.status === 'COMPLETED' && (t.passedAtAttempt ?? t.attempts) <= attempt).length;
  const durations = tasks.filter((t) => t.status !== 'SKIPPED').map((t) => t.durationMs);
  const patternCounts = countPatterns(tasks);
  const patternTotal = patternCounts.reduce((sum, p) => sum + p.count, 0);
  const novelTasks = tasks.filter((t) => t.patterns.includes('unknown'));
  const novelCount = patternCounts.find((p) => p.pattern === 'unknown')?.count ?? 0;
  const sum = (pick: (t: RunTask) => number): number => tasks.reduce((acc, t) => acc + pick(t), 0);
  const compression = ratio(
    sum((t) => t.acceptedDiffTokens),
    sum((t) => t.promptTokens),
  );
  const fidelity = ratio(completed, total);
  const passRateAt1 = ratio(passedBy(1), total);
  const dominant = patternCounts[0];
  return {
    tasks: { total, completed, failed, skipped: count('SKIPPED'), cancelled: count('CANCELLED') },
    fidelity,
    passRateAt1,
    passRateAt2: ratio(passedBy(2), total),
    passRate: ratio(completed, completed + failed),
    meanDurationMs: mean(durations),
    medianDurationMs: median(durations),
    patterns: patternCounts.map((p) => ({ ...p, share: ratio(p.count, patternTotal) })),
    novel: { count: novelCount, taskIds: novelTasks.map((t) => t.taskId) },
    compression,
    grade: gradeRun(fidelity, passRateAt1, novelCount),
    trends: {
      fidelity: trendOf(fidelity, previous?.fidelity),
      passRateAt1: trendOf(passRateAt1, previous?.passRateAt1),
      compression: trendOf(compression, previous?.compression),
    },
    improvementActions:
      dominant === undefined
        ? []
        : [{ pattern: dominant.pattern, action: improvementActionByPattern[dominant.pattern] ?? fallbackAction }],
    skills: {
      withSkill: skillStats(tasks.filter((t) => (t.usedSkills?.length ?? 0) > 0)),
      withoutSkill: skillStats(tasks.filter((t) => (t.usedSkills?.length ?? 0) === 0)),
    },
    lessons: deriveLessons(tasks),
  };
}

function skillStats(group: readonly RunTask[]): SkillGroupStats {
  const completed = group.filter((t) => t.status === 'COMPLETED').length;
  const failed = group.filter((t) => t.status === 'FAILED').length;
  return { tasks: group.length, passRate: ratio(completed, completed + failed) };
}
