// The flat form of a tasks file: a few tasks under a top-level `tasks:` with no milestones or features. It is
// read as one milestone with one feature, both `main`, and error paths are mapped back to where they were written.
import type { PathSegment } from './positions.js';
import { isRecord } from './tasks.js';

export const FLAT_GROUP_ID = 'main';
const nestedPrefix: PathSegment[] = ['milestones', 0, 'features', 0, 'tasks'];

/** The file as the outline reads it; `flat` says whether it was written in the flat form. */
export function expandFlatForm(root: unknown): { root: unknown; flat: boolean } {
  if (!isRecord(root) || !('tasks' in root) || 'milestones' in root) return { root, flat: false };
  const { tasks, ...rest } = root;
  return {
    root: { ...rest, milestones: [{ id: FLAT_GROUP_ID, features: [{ id: FLAT_GROUP_ID, tasks }] }] },
    flat: true,
  };
}

/** An error path of the expanded file, as a path of the file as written. */
export function flatPath(path: readonly PathSegment[]): PathSegment[] {
  if (path[0] === 'milestones' && path.length <= nestedPrefix.length) return ['tasks'];
  const nested = nestedPrefix.every((segment, index) => path[index] === segment);
  return nested ? ['tasks', ...path.slice(nestedPrefix.length)] : [...path];
}
