// Finds learning workflows that have had no failure for a while and ends them. A learning workflow has no "finish"
// message (it runs until terminated), so an idle one is terminated with a reason naming the clean; one that holds
// what the project learned (skills, failure history) is kept, since ending it would lose it. Workflows started
// before the rename (`reflection-<project>-<role>`, type reflectionWorkflow) are found and judged the same way.
import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import {
  learningQuery,
  learningWorkflowIdPrefix,
  memoryQuery,
  reflectionWorkflowIdPrefix,
} from '../../workflows/learning/messages.js';

export interface IdleLearningWorkflow {
  workflowId: string;
  lastFailureMs: number;
  /** How much it learned (undefined: the query got no answer); a workflow that learned anything is kept. */
  learned?: { skills: number; failures: number };
}

/** How much a learning workflow learned; an unanswered query counts as learned, so nothing is ended blind. */
async function learnedSize(
  client: Client,
  execution: { workflowId: string; type: string },
): Promise<IdleLearningWorkflow['learned'] | undefined> {
  // One from before the rename may still be served by a worker of that release, which knows only `memory`.
  const query = execution.type === 'reflectionWorkflow' ? memoryQuery : learningQuery;
  const learned = await client.workflow
    .getHandle(execution.workflowId)
    .query(query)
    .catch(() => undefined);
  return learned && { skills: learned.skills.length, failures: learned.history.length };
}

/** True when ending the workflow would lose learned skills or failure history. */
export function holdsLearning(workflow: IdleLearningWorkflow): boolean {
  return workflow.learned === undefined || workflow.learned.skills > 0 || workflow.learned.failures > 0;
}

/** When the current run last got a failure signal; without one, its start (a continued run follows its last signal). */
async function lastFailureMs(client: Client, workflowId: string, runStartMs: number): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const signalled = (history.events ?? []).filter((event) => event.workflowExecutionSignaledEventAttributes != null);
  const last = signalled.at(-1);
  return last === undefined ? runStartMs : tsToMs(last.eventTime);
}

/** The id prefixes of `project`'s learning workflows (of every project when undefined), today's and the old one. */
function idPrefixes(project: string | undefined): string[] {
  return [learningWorkflowIdPrefix, reflectionWorkflowIdPrefix].map((prefix) =>
    project === undefined ? prefix : `${prefix}${project}-`,
  );
}

/** Running learning workflows (of `project` only, when given) without a failure for `olderThanMs`. */
export async function findIdleLearningWorkflows(
  client: Client,
  options: { project?: string; olderThanMs: number; nowMs: number },
): Promise<IdleLearningWorkflow[]> {
  const prefixes = idPrefixes(options.project);
  const idle: IdleLearningWorkflow[] = [];
  for await (const execution of client.workflow.list({
    query: '(WorkflowType = "learningWorkflow" OR WorkflowType = "reflectionWorkflow") AND ExecutionStatus = "Running"',
  })) {
    if (!prefixes.some((prefix) => execution.workflowId.startsWith(prefix))) continue;
    const last = await lastFailureMs(client, execution.workflowId, execution.startTime.getTime());
    if (options.nowMs - last <= options.olderThanMs) continue;
    const learned = await learnedSize(client, execution);
    idle.push({ workflowId: execution.workflowId, lastFailureMs: last, ...(learned && { learned }) });
  }
  return idle;
}

export async function endLearningWorkflow(
  client: Client,
  workflow: IdleLearningWorkflow,
  olderThan: string,
): Promise<void> {
  await client.workflow
    .getHandle(workflow.workflowId)
    .terminate(`taskloop clean: no failure for more than ${olderThan}`);
}
