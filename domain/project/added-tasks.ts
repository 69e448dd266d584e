// Tasks added to a running project, validated like the tasks file: each spec complete (project and repo filled
// in from the project), ids new, dependencies known, no cycle. Then appended to the state and its outline.
import { z } from 'zod';
import { parseTaskSpec } from '../task-spec.js';
import type { PlannedTask } from './plan.js';
import { createTaskRecord } from './project-state.js';
import type { ProjectState } from './project-state.js';
import { addTasks } from './scheduling.js';

const plannedTaskSchema = z.strictObject({
  spec: z.record(z.string(), z.unknown()),
  milestone: z.string().min(1).default('added'),
  feature: z.string().min(1).default('added'),
  dependsOn: z.array(z.string().min(1)).default(() => []),
});

export type ValidateAddedTasksResult = { success: true; data: PlannedTask[] } | { success: false; error: string };

/** Checks tasks sent to a running project; `error` has one line per problem, each naming `tasks[i]…`. */
export function validateAddedTasks(state: ProjectState, added: unknown): ValidateAddedTasksResult {
  if (state.finished)
    return { success: false, error: `project ${state.project} has finished; start it again to run more tasks` };
  if (state.cancelRequested)
    return { success: false, error: `project ${state.project} is cancelled; nothing more will run` };
  if (!Array.isArray(added) || added.length === 0) {
    return {
      success: false,
      error: `tasks: expected a non-empty list of { spec, milestone?, feature?, dependsOn? }, got ${JSON.stringify(added) ?? 'nothing'}`,
    };
  }
  const errors: string[] = [];
  const planned: PlannedTask[] = [];
  added.forEach((item, index) => {
    const at = `tasks[${index}]`;
    const shape = plannedTaskSchema.safeParse(item);
    if (!shape.success) {
      for (const issue of shape.error.issues)
        errors.push(`${at}.${issue.path.join('.') || '(task)'}: ${issue.message}`);
      return;
    }
    const mismatch = (['project', 'repo'] as const).filter(
      (key) => shape.data.spec[key] !== undefined && shape.data.spec[key] !== state[key],
    );
    for (const key of mismatch) {
      errors.push(
        `${at}.spec.${key}: got ${JSON.stringify(shape.data.spec[key])}, but this project's ${key} is ${JSON.stringify(state[key])}; leave it out`,
      );
    }
    const spec = parseTaskSpec({ ...shape.data.spec, project: state.project, repo: state.repo });
    if (!spec.success) {
      for (const issue of spec.issues) errors.push(`${at}.spec.${issue.field}: ${issue.message}`);
      return;
    }
    planned.push({
      spec: spec.data,
      milestone: shape.data.milestone,
      feature: shape.data.feature,
      dependsOn: shape.data.dependsOn,
    });
  });
  if (errors.length > 0) return { success: false, error: errors.join('\n') };

  const graph = addTasks(
    state.tasks.map((task) => ({ id: task.id, dependsOn: task.dependsOn })),
    planned.map((task) => ({ id: task.spec.id, dependsOn: task.dependsOn })),
  );
  if (!graph.success)
    return {
      success: false,
      error: graph.errors
        .map((error) => `${error.index >= 0 ? `tasks[${error.index}]` : 'tasks'}: ${error.message}`)
        .join('\n'),
    };
  return { success: true, data: planned };
}

/** Adds validated tasks as PENDING records, and to the project's milestone/feature outline. */
export function appendTasks(state: ProjectState, planned: PlannedTask[]): void {
  for (const task of planned) {
    state.tasks.push(createTaskRecord(task, state.runId));
    let milestone = state.milestones.find((m) => m.id === task.milestone);
    if (!milestone) {
      milestone = { id: task.milestone, features: [] };
      state.milestones.push(milestone);
    }
    let feature = milestone.features.find((f) => f.id === task.feature);
    if (!feature) {
      feature = { id: task.feature, taskIds: [] };
      milestone.features.push(feature);
    }
    feature.taskIds.push(task.spec.id);
  }
}
