// Reads the project's memory (skills and failure history) from its coder reflection workflow: the one copy every host
// reaches through Temporal. Files under `<workDir>/skills/` are mirrors for humans and are never read back.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { createProjectMemory, type ProjectMemory } from '../../domain/learning/memory.js';
import { memoryQuery, reflectionWorkflowId } from '../../workflows/reflection-messages.js';

/** The role whose reflection workflow holds the project's memory (the only role that fails attempts today). */
export const memoryRole = 'coder';

/**
 * How long a read of the memory may take. A query waits for a worker of the reflection workflow's queue; when none
 * polls it (all stopped, or a misconfigured queue) the caller goes on without the memory rather than hang a claim.
 */
export const MEMORY_QUERY_TIMEOUT_MS = 5_000;

/** The memory of `project`; empty while nothing has failed in it yet (no reflection workflow). */
export async function readProjectMemory(
  client: Client,
  project: string,
  timeoutMs = MEMORY_QUERY_TIMEOUT_MS,
): Promise<ProjectMemory> {
  try {
    return await client.withDeadline(Date.now() + timeoutMs, () =>
      client.workflow.getHandle(reflectionWorkflowId(project, memoryRole)).query(memoryQuery),
    );
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return createProjectMemory();
    throw error;
  }
}

/** Inside an activity: the memory of `project`, through the worker's own client. */
export function readProjectMemoryHere(project: string): Promise<ProjectMemory> {
  return readProjectMemory(Context.current().client, project);
}
