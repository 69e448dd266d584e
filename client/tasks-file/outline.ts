// Milestone and feature ids (unique where they must be) and the outline of a valid plan.
import type { PlannedMilestone } from '../../domain/project/plan.js';
import type { PathError } from './errors.js';
import type { TasksFile } from './schema.js';
import { isRecord } from './tasks.js';

/** Milestone ids are unique in the file; feature ids are unique within their milestone. */
export function checkOutlineIds(root: unknown): PathError[] {
  const errors: PathError[] = [];
  const milestones = isRecord(root) && Array.isArray(root.milestones) ? root.milestones : [];
  findDuplicateIds(milestones, 'milestone', ['milestones'], errors);
  milestones.forEach((milestone: unknown, index) => {
    if (isRecord(milestone) && Array.isArray(milestone.features)) {
      findDuplicateIds(milestone.features, 'feature', ['milestones', index, 'features'], errors);
    }
  });
  return errors;
}

function findDuplicateIds(items: unknown[], kind: string, path: (string | number)[], errors: PathError[]): void {
  const first = new Map<string, number>();
  items.forEach((item, index) => {
    if (!isRecord(item) || typeof item.id !== 'string') return;
    const earlier = first.get(item.id);
    if (earlier === undefined) first.set(item.id, index);
    else {
      const message = `duplicate ${kind} id '${item.id}' (first at index ${earlier}); give each ${kind} its own id`;
      errors.push({ path: [...path, index, 'id'], message });
    }
  });
}

/** The milestone -> feature -> task ids outline of a file that passed every check. */
export function buildMilestones(file: TasksFile): PlannedMilestone[] {
  return file.milestones.map((milestone) => ({
    id: milestone.id,
    ...(milestone.title === undefined ? {} : { title: milestone.title }),
    features: milestone.features.map((feature) => ({
      id: feature.id,
      ...(feature.title === undefined ? {} : { title: feature.title }),
      taskIds: feature.tasks.map((task) => String(task.id)),
    })),
  }));
}
