// The rows of every --json output keep one shape: a field with no value is null, not a missing key, so a script
// reads `row.phase` without asking first whether the key is there.
import type { ProjectTaskLine } from '../../domain/project/project-task-line.js';

type Nulled<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> | null };

/** `row` with each of `keys` that it lacks, or has as undefined, set to null; the other keys as they were. */
export function withNulls<T extends object, K extends keyof T>(row: T, keys: readonly K[]): Nulled<T, K> {
  const filled: Record<PropertyKey, unknown> = { ...(row as Record<PropertyKey, unknown>) };
  for (const key of keys) filled[key] ??= null;
  return filled as Nulled<T, K>;
}

/** The fields of a project task's line that only some tasks have (a PENDING task has no attempt, phase or times). */
export const projectTaskLineOptionalKeys = [
  'attempt',
  'passedAtAttempt',
  'phase',
  'startedAt',
  'endedAt',
  'failureClass',
  'reason',
] as const satisfies readonly (keyof ProjectTaskLine)[];

/** A project task's line as JSON: every field present; a `state` alias, where the line has one, stays. */
export function projectTaskLineJson<T extends ProjectTaskLine>(line: T) {
  return withNulls(line, projectTaskLineOptionalKeys);
}

/** A project report, final or live, or the `state` query's view, with each task's line as JSON. */
export function withTaskLinesJson<T extends { tasks: ProjectTaskLine[] }>(source: T) {
  return { ...source, tasks: source.tasks.map((line) => projectTaskLineJson(line)) };
}
