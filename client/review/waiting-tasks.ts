// The tasks that wait for a person: found through the TaskStatus search attribute, each read through its state query
// and the input it started with (its repository), ordered by project, then oldest wait first.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { waitingRound, type ReviewRound } from '../../domain/approval.js';
import type { TaskState } from '../../domain/task-state.js';
import type { taskWorkflow } from '../../workflows/task.js';
import { buildListQuery } from '../projects/list-query.js';
import { UsageError } from '../cli-errors.js';
import { queryTaskState } from '../tasks/query-state.js';
import { readRunInput } from '../tasks/run-input.js';

export interface WaitingTask {
  workflowId: string;
  taskId: string;
  project: string;
  goal: string;
  repo: string;
  state: TaskState;
  round: ReviewRound;
  handle: WorkflowHandle<typeof taskWorkflow>;
}

export async function listWaitingTasks(client: Client, project?: string): Promise<WaitingTask[]> {
  const query = buildListQuery({ type: 'task', status: 'AWAITING_APPROVAL', project });
  if (!query.success) throw new UsageError(`taskloop review: ${query.error}`);
  const found: WaitingTask[] = [];
  for await (const execution of client.workflow.list({ query: query.data })) {
    if (execution.status.name !== 'RUNNING') continue;
    const handle = client.workflow.getHandle<typeof taskWorkflow>(execution.workflowId);
    const state = await queryTaskState(client, handle, execution.taskQueue);
    // The list is eventually consistent: a task answered a moment ago may still be listed.
    const round = state.status === 'AWAITING_APPROVAL' ? waitingRound(state.review) : undefined;
    if (!round) continue;
    const input = await readRunInput(client, execution);
    found.push({
      workflowId: execution.workflowId,
      taskId: state.taskId,
      project: state.project,
      goal: state.goal,
      repo: input.spec.repo,
      handle,
      state,
      round,
    });
  }
  return found.sort(
    (a, b) => a.project.localeCompare(b.project) || a.round.waitingSince.localeCompare(b.round.waitingSince),
  );
}
