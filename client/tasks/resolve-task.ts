// Finds the task workflow a person means: a workflow id (`task-<project>-<id>`), or a task id looked up through
// the TaskId search attribute. Unknown and ambiguous ids are usage errors that say what to pass instead.
import {
  WorkflowNotFoundError,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import { taskSpecFieldsSchema } from '../../domain/task-spec.js';
import { TaskIdKey } from '../../workflows/search-attributes.js';
import type { taskWorkflow } from '../../workflows/task.js';
import { UsageError } from '../cli-errors.js';

export interface ResolvedTask {
  handle: WorkflowHandle<typeof taskWorkflow>;
  /** The latest run of the workflow id. */
  description: WorkflowExecutionDescription;
}

const MAX_CANDIDATES = 20;

/**
 * How long a task id that visibility does not know yet is looked for again: visibility lags behind a start (more on
 * a loaded cluster with SQL visibility), so `taskloop status <id>` right after `taskloop run` must not say "no task".
 */
export const VISIBILITY_LAG_MS = 5000;

/** The single positional argument of status/pause/resume/cancel/retry. */
export function takeTaskRef(command: string, positionals: string[]): string {
  if (positionals.length !== 1 || !positionals[0]) {
    throw new UsageError(
      `taskloop ${command}: expected one task id or workflow id, got ${positionals.length} (${positionals.join(' ') || 'none'}); e.g. taskloop ${command} task-default-fix-add-1a2b3c`,
    );
  }
  return positionals[0];
}

export async function resolveTask(client: Client, command: string, ref: string): Promise<ResolvedTask> {
  if (ref.startsWith('task-')) {
    const found = await describe(client, ref);
    if (found) return found;
  }
  const workflowIds = taskSpecFieldsSchema.shape.id.safeParse(ref).success ? await waitForTaskId(client, ref) : [];
  if (workflowIds.length === 0) {
    throw new UsageError(
      `taskloop ${command}: no task with id ${ref}; pass a task id or a workflow id (task-<project>-<id>) of a task that was started`,
    );
  }
  if (workflowIds.length > 1) {
    throw new UsageError(
      `taskloop ${command}: task id ${ref} is ambiguous, it names ${workflowIds.length} workflows: ${workflowIds.join(', ')}; pass one of these workflow ids`,
    );
  }
  const found = await describe(client, workflowIds[0] as string);
  if (!found) throw new UsageError(`taskloop ${command}: no task with id ${ref}`);
  return found;
}

async function describe(client: Client, workflowId: string): Promise<ResolvedTask | undefined> {
  const handle = client.workflow.getHandle<typeof taskWorkflow>(workflowId);
  try {
    return { handle, description: await handle.describe() };
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  }
}

/** findByTaskId, asked again for up to VISIBILITY_LAG_MS while it finds nothing. */
async function waitForTaskId(client: Client, taskId: string): Promise<string[]> {
  const deadline = Date.now() + VISIBILITY_LAG_MS;
  for (;;) {
    const found = await findByTaskId(client, taskId);
    if (found.length > 0 || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Distinct workflow ids whose runs carry this TaskId (a retried task has several runs of one id). */
async function findByTaskId(client: Client, taskId: string): Promise<string[]> {
  const ids = new Set<string>();
  // The id passed the task-id pattern above, so it holds no quote that could break out of the query string.
  for await (const execution of client.workflow.list({ query: `${TaskIdKey.name} = "${taskId}"` })) {
    ids.add(execution.workflowId);
    if (ids.size >= MAX_CANDIDATES) break;
  }
  return [...ids].sort();
}
