// The demo's batch: examples/calc/tasks.yaml, pointed at this run's fresh repository under a project id of its
// own (so every demo run is a new set of workflows), optionally with another coder model.
import path from 'node:path';
import type { ProjectPlan } from '../../domain/project/plan.js';
import { acceptedModelForms, modelSpecPattern } from '../../domain/providers.js';
import { UsageError } from '../cli-errors.js';
import { formatTasksFileErrors, loadTasksFile } from '../tasks-file/load.js';
import { exampleDir } from './prepare-repo.js';

/**
 * What a bundled local model (`local:`) runs the demo with: the coder version made for small models (the tests' evidence
 * first, four tools), a step bound for a CPU, where one turn of the 1.5B takes 10 to 90 s, and three candidates an
 * attempt decided by the tests (domain/samples.ts) in place of two retries: at most three coder runs a task either
 * way, and a small model's chance that one of three draws is right is well above its chance on the first
 * (docs/models.md, "The demo with the bundled 1.5B").
 */
export const LOCAL_MODEL_DEMO = {
  coderVersion: 'coder-small-text',
  maxCoderSteps: 8,
  samples: 3,
  maxRetries: 0,
} as const;

export async function loadDemoPlan(input: { project: string; repo: string; model?: string }): Promise<ProjectPlan> {
  const loaded = await loadTasksFile(path.join(exampleDir, 'tasks.yaml'));
  if (!loaded.success) throw new Error(`the demo's tasks file is broken:\n${formatTasksFileErrors(loaded.errors)}`);
  if (input.model !== undefined && !modelSpecPattern.test(input.model)) {
    throw new UsageError(
      `taskloop demo: --model must look like ${acceptedModelForms}, got ${JSON.stringify(input.model)}`,
    );
  }
  const plan = loaded.data;
  const local = input.model?.startsWith('local:') === true;
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
        ...(local
          ? {
              agents: { ...task.spec.agents, coder: LOCAL_MODEL_DEMO.coderVersion },
              agentsChosenBy: { coder: 'the demo, for local models' },
              maxCoderSteps: LOCAL_MODEL_DEMO.maxCoderSteps,
              samples: LOCAL_MODEL_DEMO.samples,
              maxRetries: LOCAL_MODEL_DEMO.maxRetries,
            }
          : {}),
      },
    })),
  };
}
