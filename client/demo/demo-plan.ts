// The demo's batch: examples/calc/tasks.yaml, pointed at this run's fresh repository under a project id of its
// own (so every demo run is a new set of workflows), optionally with another coder model.
import path from 'node:path';
import type { ProjectPlan } from '../../domain/project/plan.js';
import { acceptedModelForms, modelSpecPattern } from '../../domain/providers.js';
import { UsageError } from '../cli-errors.js';
import { formatTasksFileErrors, loadTasksFile } from '../tasks-file/load.js';
import { exampleDir } from './prepare-repo.js';

export async function loadDemoPlan(input: { project: string; repo: string; model?: string }): Promise<ProjectPlan> {
  const loaded = await loadTasksFile(path.join(exampleDir, 'tasks.yaml'));
  if (!loaded.success) throw new Error(`the demo's tasks file is broken:\n${formatTasksFileErrors(loaded.errors)}`);
  if (input.model !== undefined && !modelSpecPattern.test(input.model)) {
    throw new UsageError(
      `taskloop demo: --model must look like ${acceptedModelForms}, got ${JSON.stringify(input.model)}`,
    );
  }
  const plan = loaded.data;
  return {
    ...plan,
    project: input.project,
    repo: input.repo,
    tasks: plan.tasks.map((task) => ({
      ...task,
      spec: {
        ...task.spec,
        project: input.project,
        repo: input.repo,
        models: input.model ? { ...task.spec.models, coder: input.model } : task.spec.models,
      },
    })),
  };
}
