// Which fields of two task specs differ: a second `run` of an existing id must not silently mean the old task.
import type { TaskSpec } from './task-spec.js';

/**
 * Top-level spec fields whose values differ (compared as JSON), in the spec's own order. Why a version was chosen is
 * no difference of the task: the same version chosen by `--agent` or by the model's default is the same task.
 */
export function differingSpecFields(existing: TaskSpec, requested: TaskSpec): string[] {
  const keys = [...new Set([...Object.keys(requested), ...Object.keys(existing)])].filter(
    (key) => key !== 'agentsChosenBy',
  ) as (keyof TaskSpec)[];
  return keys.filter((key) => JSON.stringify(existing[key]) !== JSON.stringify(requested[key]));
}
