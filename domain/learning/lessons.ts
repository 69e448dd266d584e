// Lessons: what a project run teaches, stated as short sentences with their numbers.
import { shortHash } from './sha256.js';
import { countPatterns, mean } from './finished-task.js';
import type { RunTask } from './finished-task.js';

export interface Lesson {
  /** First 12 hex of sha256 of `${category}\n${text}`: the same lesson keeps its id across runs. */
  id: string;
  category: 'correlation' | 'reliability' | 'systemic';
  text: string;
  evidence: Record<string, number>;
}

/** Failed tasks must average at least this many times the converged tasks' value. */
export const correlationRatioAtLeast = 1.5;
export const simpleMaxContracts = 1;
export const simpleMaxLines = 50;
export const simpleTasksAtLeast = 2;
/** A pattern is systemic above this share of all failures (and with at least two failures). */
export const dominantShareAbove = 0.7;

const metrics = [
  { key: 'contractCount', noun: 'contracts' },
  { key: 'testCount', noun: 'tests' },
  { key: 'sizeLines', noun: 'lines' },
] as const;

/** Lessons of a run in a fixed order (correlations, reliability, systemic); independent of input order. */
export function deriveLessons(tasks: readonly RunTask[]): Lesson[] {
  const sorted = [...tasks].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
  const lessons = [
    ...metrics.flatMap((m) => correlate(sorted, m.key, m.noun)),
    ...simpleReliability(sorted),
    ...dominantPattern(sorted),
  ];
  return lessons.map((l) => ({ id: shortHash(`${l.category}\n${l.text}`), ...l }));
}

type Draft = Omit<Lesson, 'id'>;

function correlate(tasks: readonly RunTask[], key: (typeof metrics)[number]['key'], noun: string): Draft[] {
  const valuesOf = (status: RunTask['status']): number[] =>
    tasks.flatMap((t) => (t.status === status && t[key] !== undefined ? [t[key]] : []));
  const failed = valuesOf('FAILED');
  const converged = valuesOf('COMPLETED');
  if (failed.length === 0 || converged.length === 0) return [];
  const failedMean = mean(failed);
  const convergedMean = mean(converged);
  const evidence = { failedMean, convergedMean, failedTasks: failed.length, convergedTasks: converged.length };
  const means = `(${failedMean.toFixed(1)} vs ${convergedMean.toFixed(1)})`;
  if (convergedMean === 0) {
    return failedMean > 0
      ? [{ category: 'correlation', text: `Failed tasks had more ${noun} on average ${means}`, evidence }]
      : [];
  }
  const times = failedMean / convergedMean;
  if (times < correlationRatioAtLeast) return [];
  const text = `Failed tasks had ${times.toFixed(1)}x more ${noun} on average ${means}`;
  return [{ category: 'correlation', text, evidence: { ...evidence, ratio: times } }];
}

function simpleReliability(tasks: readonly RunTask[]): Draft[] {
  // Only tasks that reached a verdict: a skipped or cancelled task says nothing about its difficulty.
  const simple = tasks.filter(
    (t) =>
      (t.status === 'COMPLETED' || t.status === 'FAILED') &&
      t.contractCount !== undefined &&
      t.contractCount <= simpleMaxContracts &&
      t.sizeLines !== undefined &&
      t.sizeLines <= simpleMaxLines,
  );
  if (simple.length < simpleTasksAtLeast || simple.some((t) => t.status !== 'COMPLETED')) return [];
  const text = `Simple tasks (at most ${simpleMaxContracts} contract and ${simpleMaxLines} lines) passed reliably: all ${simple.length} completed`;
  return [{ category: 'reliability', text, evidence: { simpleTasks: simple.length, completed: simple.length } }];
}

function dominantPattern(tasks: readonly RunTask[]): Draft[] {
  const counts = countPatterns(tasks);
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  const top = counts[0];
  if (top === undefined || total < 2 || top.count / total <= dominantShareAbove) return [];
  const share = top.count / total;
  const text = `${top.pattern} caused ${top.count} of ${total} failures (${Math.round(share * 100)}%): a systemic issue to fix at its source, not task by task`;
  return [{ category: 'systemic', text, evidence: { count: top.count, total, share } }];
}
