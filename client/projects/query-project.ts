// The project's `state` query with a bound: without a worker a query would wait for the whole RPC timeout, and a
// project whose first workflow task has not run yet has no handler registered, so that case is retried briefly.
import { isGrpcDeadlineError, QueryNotRegisteredError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { ProjectStateView } from '../../domain/project/project-report.js';
import { readProjectTaskLine, withStateAlias } from '../../domain/project/project-task-line.js';
import { projectStateQuery } from '../../workflows/project-messages.js';
import { WorkFailed } from '../cli-errors.js';

const QUERY_DEADLINE_MS = 15_000;
const NOT_READY_PAUSE_MS = 300;

export async function queryProjectState(
  client: Client,
  command: string,
  handle: WorkflowHandle,
  taskQueue: string,
): Promise<ProjectStateView> {
  const deadline = Date.now() + QUERY_DEADLINE_MS;
  for (;;) {
    try {
      return readProjectView(await client.withDeadline(deadline, () => handle.query(projectStateQuery)));
    } catch (error) {
      if (isGrpcDeadlineError(error) || isGrpcDeadlineError((error as Error).cause)) {
        throw new WorkFailed(
          `taskloop ${command}: no worker answered the state query of ${handle.workflowId} within ${QUERY_DEADLINE_MS / 1000}s; is \`taskloop worker\` serving task queue ${taskQueue}?`,
        );
      }
      if (!(error instanceof QueryNotRegisteredError)) throw error;
      if (Date.now() + NOT_READY_PAUSE_MS > deadline)
        throw new WorkFailed(
          `taskloop ${command}: ${handle.workflowId} has not begun running yet; try again in a moment`,
        );
      await new Promise((resolve) => setTimeout(resolve, NOT_READY_PAUSE_MS));
    }
  }
}

/** The `state` query's answer with `status` on every line: a worker of before `status` answers with `state` alone. */
export function readProjectView(view: ProjectStateView): ProjectStateView {
  return { ...view, tasks: view.tasks.map((task) => withStateAlias(readProjectTaskLine(task))) };
}
