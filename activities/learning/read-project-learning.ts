// Reads what the project learned (skills and failure history) from its coder learning workflow: the one copy every
// host reaches through Temporal. Files under `<workDir>/skills/` are mirrors for humans and are never read back.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { createProjectLearning, historyForTask, type ProjectLearning } from '../../domain/learning/project-learning.js';
import type { HistoryEntry } from '../../domain/learning/adaptations.js';
import { learningQuery, memoryQuery } from '../../workflows/learning/messages.js';
import { findLearningWorkflow, workflowRunState } from './find-learning-workflow.js';

/** The role whose learning workflow holds what the project learned (the only role that fails attempts today). */
export const learningRole = 'coder';

/**
 * How long a read may take. A query waits for a worker of the learning workflow's queue; when none polls it (all
 * stopped, or a misconfigured queue) the caller goes on without what was learned rather than hang a claim.
 */
export const LEARNING_QUERY_TIMEOUT_MS = 5_000;

/** What `project` learned; empty while nothing has failed in it yet (no learning workflow). */
export async function readProjectLearning(
  client: Client,
  project: string,
  timeoutMs = LEARNING_QUERY_TIMEOUT_MS,
): Promise<ProjectLearning> {
  try {
    return await client.withDeadline(Date.now() + timeoutMs, async () => {
      const found = await findLearningWorkflow(client, project, learningRole);
      // A project that never failed has no learning workflow: asked first, so no query fails (an error span).
      if (found.workflowType === 'learningWorkflow' && (await workflowRunState(client, found.workflowId)) === 'none')
        return createProjectLearning();
      // A workflow from before the rename may still be served by a worker of that release, which knows only `memory`.
      const query = found.workflowType === 'reflectionWorkflow' ? memoryQuery : learningQuery;
      return client.workflow.getHandle(found.workflowId).query(query);
    });
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return createProjectLearning();
    throw error;
  }
}

/** Inside an activity: what `project` learned, through the worker's own client. */
export function readProjectLearningHere(project: string): Promise<ProjectLearning> {
  return readProjectLearning(Context.current().client, project);
}

/**
 * The claim reads what the project learned (for the workflow's adaptations) a moment before the coder of the same attempt,
 * on the same host, needs it again (for its skills): the claim's read is kept here for that coder, which then sends no
 * query of its own (a query costs a workflow task of the learning workflow when it exists, and a server round trip
 * always). Kept per workflow run and attempt, taken once; a read nobody takes (the attempt ended before its coder)
 * goes when it is older than KEPT_READ_MS or KEPT_READS newer ones are kept.
 */
const keptReads = new Map<string, { learned: ProjectLearning; at: number }>();
const KEPT_READS = 256;
const KEPT_READ_MS = 60_000;

/** The key of one attempt's read of what one project learned. */
export interface LearningReadKey {
  runId: string;
  workflowId: string;
  attempt: number;
  project: string;
}

const keyOf = (key: LearningReadKey) => JSON.stringify([key.runId, key.workflowId, key.attempt, key.project]);

/** Keeps the claim's read for the coder activity of the same attempt (takeKeptLearningRead). */
export function keepLearningRead(key: LearningReadKey, learned: ProjectLearning, now = Date.now()): void {
  for (const [id, kept] of keptReads) {
    if (now - kept.at <= KEPT_READ_MS && keptReads.size < KEPT_READS) break;
    keptReads.delete(id);
  }
  keptReads.delete(keyOf(key));
  keptReads.set(keyOf(key), { learned, at: now });
}

/** The read the claim of this attempt kept on this host, once; undefined when there is none (read it then). */
export function takeKeptLearningRead(key: LearningReadKey, now = Date.now()): ProjectLearning | undefined {
  const id = keyOf(key);
  const kept = keptReads.get(id);
  keptReads.delete(id);
  return kept && now - kept.at <= KEPT_READ_MS ? kept.learned : undefined;
}

/** This attempt's read of what `project` learned, inside its claim or coder activity. */
function attemptReadKey(ref: { workflowId: string; attempt: number }, project: string): LearningReadKey {
  const runId = Context.current().info.workflowExecution?.runId ?? 'no-run';
  return { runId, workflowId: ref.workflowId, attempt: ref.attempt, project };
}

/**
 * Inside a claim: the project's history of similar tasks, from its learning workflow in Temporal (the same on every host); a
 * failure to read it only loses the adaptations. The read is kept for the attempt's coder activity.
 */
export async function readClaimHistory(input: {
  workflowId: string;
  attempt: number;
  taskId: string;
  project: string;
}): Promise<{ history?: HistoryEntry[]; historyError?: string }> {
  try {
    const learned = await readProjectLearningHere(input.project);
    keepLearningRead(attemptReadKey(input, input.project), learned);
    return { history: historyForTask(learned.history, input.taskId) };
  } catch (error) {
    return { historyError: error instanceof Error ? error.message : String(error) };
  }
}

/** Inside a coder activity: what its attempt's claim read on this host (takeKeptLearningRead). */
export function takeClaimLearningRead(
  ref: { workflowId: string; attempt: number },
  project: string,
): ProjectLearning | undefined {
  return takeKeptLearningRead(attemptReadKey(ref, project));
}
