// The `state` query with a bound: a query needs a worker (without one it would wait for the whole RPC timeout), and
// a task whose first workflow task has not run yet has no handler registered, so that case is retried briefly.
import { isGrpcDeadlineError, QueryNotRegisteredError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { TaskState } from '../../domain/task-state.js';
import { stateQuery } from '../../workflows/messages.js';
import { WorkFailed } from '../cli-errors.js';

const QUERY_DEADLINE_MS = 15_000;
const NOT_READY_PAUSE_MS = 300;

export async function queryTaskState(client: Client, handle: WorkflowHandle, taskQueue: string): Promise<TaskState> {
  const deadline = Date.now() + QUERY_DEADLINE_MS;
  for (;;) {
    try {
      return await client.withDeadline(deadline, () => handle.query(stateQuery));
    } catch (error) {
      if (isGrpcDeadlineError(error) || isGrpcDeadlineError((error as Error).cause)) {
        throw new WorkFailed(
          `taskloop status: no worker answered the state query of ${handle.workflowId} within ${QUERY_DEADLINE_MS / 1000}s; is \`taskloop worker\` serving task queue ${taskQueue}?`,
        );
      }
      if (!(error instanceof QueryNotRegisteredError)) throw error;
      if (Date.now() + NOT_READY_PAUSE_MS > deadline)
        throw new WorkFailed(`taskloop status: ${handle.workflowId} has not begun running yet; try again in a moment`);
      await new Promise((resolve) => setTimeout(resolve, NOT_READY_PAUSE_MS));
    }
  }
}
