// `taskloop retry PROJECT`: runs failed, cancelled or skipped tasks of a running project again (the `retryTask`
// update; their skipped dependants are reset with them). A closed project takes no more work.
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { projectStateQuery, retryTaskUpdate } from '../../workflows/project-messages.js';
import { WorkFailed } from '../cli-errors.js';
import { readProjectView } from './query-project.js';
import type { ResolvedProject } from './resolve-target.js';

export async function retryProjectTasks(
  client: Client,
  { handle, description }: ResolvedProject,
  options: { taskId?: string; hint?: string },
): Promise<string[]> {
  const workflowId = handle.workflowId;
  if (description.status.name !== 'RUNNING') {
    throw new WorkFailed(
      `taskloop retry: project ${workflowId} has already closed (${description.status.name}) and takes no more work; retry one of its tasks by its workflow id (taskloop retry task-<project>-<id>), or schedule the project again under a new name`,
    );
  }
  const view = readProjectView(await client.withDeadline(Date.now() + 15_000, () => handle.query(projectStateQuery)));
  const ids =
    options.taskId !== undefined
      ? [options.taskId]
      : view.tasks.filter((task) => task.status === 'FAILED' || task.status === 'CANCELLED').map((task) => task.id);
  if (ids.length === 0)
    throw new WorkFailed(`taskloop retry: project ${workflowId} has no FAILED or CANCELLED task to retry`);
  const reset: string[] = [];
  for (const taskId of ids) {
    if (reset.includes(taskId)) continue;
    try {
      const accepted = await handle.executeUpdate(retryTaskUpdate, {
        args: [{ taskId, ...(options.hint === undefined ? {} : { hint: options.hint }) }],
      });
      reset.push(...accepted.reset);
    } catch (error) {
      if (!(error instanceof WorkflowUpdateFailedError)) throw error;
      throw new WorkFailed(
        `taskloop retry: project ${workflowId} refused to retry ${taskId}: ${error.cause?.message ?? error.message}`,
      );
    }
  }
  return reset;
}
