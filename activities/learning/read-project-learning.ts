// Reads what the project learned (skills and failure history) from its coder learning workflow: the one copy every
// host reaches through Temporal. Files under `<workDir>/skills/` are mirrors for humans and are never read back.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { createProjectLearning, historyForTask, type ProjectLearning } from '../../domain/learning/project-learning.js';
import type { HistoryEntry } from '../../domain/learning/adaptations.js';
import { learningQuery, memoryQuery } from '../../workflows/learning/messages.js';
import { findLearningWorkflow, workflowRunState } from './find-learning-workflow.js';
import { findSkillsFor, type OfferedSkill } from './load-skills.js';

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
 * Inside a claim: the project's history of similar tasks, from its learning workflow in Temporal (the same on every
 * host), and the skills it learned that match the goal: both go to the workflow in the claim's result, which hands the
 * skills to the attempt's coder (no second read there). A failure to read only loses the adaptations and the skills
 * (the coder then reads the skills itself).
 */
export async function readClaimHistory(input: {
  taskId: string;
  project: string;
  /** The task's goal, which the skills are matched to; without it no skills are read. */
  goal?: string;
}): Promise<{ history?: HistoryEntry[]; skills?: OfferedSkill[]; historyError?: string }> {
  try {
    const learned = await readProjectLearningHere(input.project);
    const history = historyForTask(learned.history, input.taskId);
    return input.goal === undefined ? { history } : { history, skills: findSkillsFor(learned.skills, input.goal) };
  } catch (error) {
    return { historyError: error instanceof Error ? error.message : String(error) };
  }
}
