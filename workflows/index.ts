// Every workflow a taskloop worker serves (the bundle entry point).
//
// The worker evaluates this entry's module graph again for every workflow execution (the SDK's reusable V8 context
// keeps each execution's modules apart), so a static re-export would make every task evaluate the project and
// learning workflows too, with zod and yaml: most of a task's first workflow task. Each workflow's modules are
// therefore loaded by its own type only. `webpackMode: "eager"` keeps them in the one bundle file (no chunk to
// fetch): the import resolves within the same activation, before the workflow's first command, so history and
// replay are as with a static import. test/unit/workflows/lazy-workflows.test.ts checks the bundle.
import type { EvalArmInput } from './eval-arm.js';
import type { ProjectWorkflowInput } from './project.js';
import type { LearningWorkflowInput } from './learning/learning-workflow.js';
import type { TaskWorkflowInput } from './task.js';
import type { LanderInput } from './land/lander-workflow.js';
import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';

export { probeWorkflow } from './probe.js';

export async function taskWorkflow(input: TaskWorkflowInput) {
  const workflow = await import(/* webpackMode: "eager" */ './task.js');
  return workflow.taskWorkflow(input);
}

export async function projectWorkflow(input: ProjectWorkflowInput) {
  const workflow = await import(/* webpackMode: "eager" */ './project.js');
  return workflow.projectWorkflow(input);
}

export async function learningWorkflow(input: LearningWorkflowInput) {
  const workflow = await import(/* webpackMode: "eager" */ './learning/learning-workflow.js');
  return workflow.learningWorkflow(input);
}

/**
 * @deprecated The learning workflow's type before the rename: workflows started as `reflectionWorkflow` (ids
 * `reflection-<project>-<role>`) still run, continue as new under it and replay. New ones start as learningWorkflow.
 */
export function reflectionWorkflow(input: LearningWorkflowInput) {
  return learningWorkflow(input);
}

/** The landing queue of one repository and target branch (workflows/land/lander-workflow.ts). */
export async function landerWorkflow(input: LanderInput) {
  const workflow = await import(/* webpackMode: "eager" */ './land/lander-workflow.js');
  return workflow.landerWorkflow(input);
}

// Task and eval workflows stay on the version that started them (the workers' default, PINNED). The long-lived ones
// follow upgrades: on their next workflow task after a new version becomes current they run on it, so what the
// project learned stays readable once old workers stop, and old versions drain. Their code must therefore replay
// histories of earlier versions: changes to it go behind patched(). Only on versioned workers: the server refuses
// a versioning behavior from a worker without a deployment version (every workflow task would fail).
const followsUpgrades = () =>
  workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: 'AUTO_UPGRADE' as const } : {};
setWorkflowOptions(followsUpgrades, projectWorkflow);
setWorkflowOptions(followsUpgrades, learningWorkflow);
setWorkflowOptions(followsUpgrades, reflectionWorkflow);
setWorkflowOptions(followsUpgrades, landerWorkflow);

export async function evalArmWorkflow(input: EvalArmInput) {
  const workflow = await import(/* webpackMode: "eager" */ './eval-arm.js');
  return workflow.evalArmWorkflow(input);
}
