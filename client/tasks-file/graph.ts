// Runs the plan's graph checks on the tasks of a file and points each problem at its line.
import { validatePlanGraph } from '../../domain/project/plan.js';
import { formatPath } from './errors.js';
import type { PathError } from './errors.js';
import type { RawTask } from './tasks.js';

/** Duplicate ids point at the later `id`; unknown, self and cycle dependencies at the `dependsOn` entry. */
export function checkTaskGraph(tasks: RawTask[]): PathError[] {
  const nodes = tasks
    .filter((task) => typeof task.fields.id === 'string')
    .map((task) => ({ task, id: task.fields.id as string, dependsOn: readDependsOn(task) }));
  const result = validatePlanGraph(nodes);
  if (result.success) return [];
  return result.errors.map((error) => {
    const { task } = nodes[error.index]!;
    const written = task.fields.dependsOn;
    const entry = error.dependency !== undefined && Array.isArray(written) ? written.indexOf(error.dependency) : -1;
    const path = entry >= 0 ? [...task.path, 'dependsOn', entry] : [...task.path, 'id'];
    if (error.kind !== 'duplicate' || error.firstIndex === undefined) return { path, message: error.message };
    // Indexes into the flattened task list mean little to a reader of the file: name the first one's place.
    const first = formatPath(nodes[error.firstIndex]!.task.path);
    return { path, message: `duplicate task id '${error.taskId}' (first at ${first}); give each task its own id` };
  });
}

/** The string entries of `dependsOn`; a malformed list is reported by the outline schema. */
export function readDependsOn(task: RawTask): string[] {
  const list = task.fields.dependsOn;
  return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
}
