// Reads the project's memory (skills and failure history) from its coder reflection workflow: the one copy every host
// reaches through Temporal. Files under `<workDir>/skills/` are mirrors for humans and are never read back.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { createProjectMemory, historyForTask, type ProjectMemory } from '../../domain/learning/memory.js';
import type { HistoryEntry } from '../../domain/learning/adaptations.js';
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

/**
 * The claim reads the project's memory (for the workflow's adaptations) a moment before the coder of the same attempt,
 * on the same host, needs it again (for its skills): the claim's read is kept here for that coder, which then sends no
 * query of its own (a query costs a workflow task of the reflection workflow when it exists, and a server round trip
 * always). Kept per workflow run and attempt, taken once; a read nobody takes (the attempt ended before its coder)
 * goes when it is older than KEPT_READ_MS or KEPT_READS newer ones are kept.
 */
const keptReads = new Map<string, { memory: ProjectMemory; at: number }>();
const KEPT_READS = 256;
const KEPT_READ_MS = 60_000;

/** The key of one attempt's read of one project's memory. */
export interface MemoryReadKey {
  runId: string;
  workflowId: string;
  attempt: number;
  project: string;
}

const keyOf = (key: MemoryReadKey) => JSON.stringify([key.runId, key.workflowId, key.attempt, key.project]);

/** Keeps the claim's read of the memory for the coder activity of the same attempt (takeKeptMemoryRead). */
export function keepMemoryRead(key: MemoryReadKey, memory: ProjectMemory, now = Date.now()): void {
  for (const [id, kept] of keptReads) {
    if (now - kept.at <= KEPT_READ_MS && keptReads.size < KEPT_READS) break;
    keptReads.delete(id);
  }
  keptReads.delete(keyOf(key));
  keptReads.set(keyOf(key), { memory, at: now });
}

/** The read the claim of this attempt kept on this host, once; undefined when there is none (read it then). */
export function takeKeptMemoryRead(key: MemoryReadKey, now = Date.now()): ProjectMemory | undefined {
  const id = keyOf(key);
  const kept = keptReads.get(id);
  keptReads.delete(id);
  return kept && now - kept.at <= KEPT_READ_MS ? kept.memory : undefined;
}

/** This attempt's read of `project`'s memory, inside its claim or coder activity. */
function attemptReadKey(ref: { workflowId: string; attempt: number }, project: string): MemoryReadKey {
  const runId = Context.current().info.workflowExecution?.runId ?? 'no-run';
  return { runId, workflowId: ref.workflowId, attempt: ref.attempt, project };
}

/**
 * Inside a claim: the project's history of similar tasks, from its memory in Temporal (the same on every host); a
 * failure to read it only loses the adaptations. The read is kept for the attempt's coder activity.
 */
export async function readClaimHistory(input: {
  workflowId: string;
  attempt: number;
  taskId: string;
  project: string;
}): Promise<{ history?: HistoryEntry[]; historyError?: string }> {
  try {
    const memory = await readProjectMemoryHere(input.project);
    keepMemoryRead(attemptReadKey(input, input.project), memory);
    return { history: historyForTask(memory.history, input.taskId) };
  } catch (error) {
    return { historyError: error instanceof Error ? error.message : String(error) };
  }
}

/** Inside a coder activity: the memory its attempt's claim read on this host (takeKeptMemoryRead). */
export function takeClaimMemoryRead(
  ref: { workflowId: string; attempt: number },
  project: string,
): ProjectMemory | undefined {
  return takeKeptMemoryRead(attemptReadKey(ref, project));
}
