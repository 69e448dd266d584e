// The record of one task in a project run: what the report card and the lessons read.
import { z } from 'zod';

export const runTaskStatuses = ['COMPLETED', 'FAILED', 'SKIPPED', 'CANCELLED'] as const;

export const runTaskSchema = z.object({
  taskId: z.string().min(1),
  status: z.enum(runTaskStatuses),
  attempts: z.number().int().min(0),
  /** The attempt that passed, when the task completed. */
  passedAtAttempt: z.number().int().min(1).optional(),
  durationMs: z.number().min(0),
  /** Top pattern types of the failed attempts, one per failed attempt. */
  patterns: z.array(z.string()),
  acceptedDiffTokens: z.number().min(0),
  promptTokens: z.number().min(0),
  contractCount: z.number().min(0).optional(),
  testCount: z.number().min(0).optional(),
  sizeLines: z.number().min(0).optional(),
  usedSkills: z.array(z.string()).optional(),
});
export type RunTask = z.infer<typeof runTaskSchema>;

/** Counts of each pattern over all failed attempts, most frequent first (ties by name). */
export function countPatterns(tasks: readonly RunTask[]): { pattern: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const task of tasks) for (const p of task.patterns) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts]
    .map(([pattern, count]) => ({ pattern, count }))
    .sort((a, b) => b.count - a.count || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
}

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `part / whole`, 0 when the whole is 0. */
export const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
