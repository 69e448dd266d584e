// The search attributes a task workflow starts with, set by whoever starts it (the CLI, a project), so the
// workflow's first workflow task needs no upsert: the values its state has when the first attempt is claimed.
import type { SearchAttributePair } from '@temporalio/common';
import type { TaskSpec } from '../../domain/task-spec.js';
import { AttemptKey, PhaseKey, ProjectKey, TaskIdKey, TaskStatusKey } from '../search-attributes.js';

/** `carriedAttempts`: attempts of an earlier run the new run continues after (`taskloop retry`), 0 for a first run. */
export function taskStartSearchAttributes(
  spec: Pick<TaskSpec, 'id' | 'project'>,
  carriedAttempts = 0,
): SearchAttributePair[] {
  return [
    { key: TaskIdKey, value: spec.id },
    { key: ProjectKey, value: spec.project },
    { key: PhaseKey, value: 'claim' },
    { key: TaskStatusKey, value: 'RUNNING' },
    { key: AttemptKey, value: carriedAttempts + 1 },
  ];
}
