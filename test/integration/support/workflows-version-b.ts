// Version B of the workflows for the upgrade test: the task workflow first waits on a timer, a change that
// would break the replay of any history version A wrote (so a pinned task finishing on B would fail).
import { sleep } from '@temporalio/workflow';
import { taskWorkflow as taskWorkflowA, type TaskWorkflowInput } from '../../../workflows/task.js';

export { probeWorkflow, projectWorkflow, learningWorkflow, reflectionWorkflow } from '../../../workflows/index.js';

export async function taskWorkflow(input: TaskWorkflowInput): ReturnType<typeof taskWorkflowA> {
  await sleep(1);
  return taskWorkflowA(input);
}
