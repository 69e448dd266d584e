// Finds reflection workflows that have had no failure for a while and ends them. The reflection workflow has no
// "finish" message (it runs until terminated), so an idle one is terminated with a reason naming the clean; one that
// holds the project's memory (skills, failure history) is kept, since ending it would lose what the hosts learned.
import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import { memoryQuery } from '../../workflows/reflection-messages.js';

export interface IdleReflection {
  workflowId: string;
  lastFailureMs: number;
  /** What its memory holds (undefined: the query got no answer); a reflection with any of it is kept. */
  memory?: { skills: number; failures: number };
}

/** The size of a reflection's memory; an unanswered query counts as a memory, so nothing is ended blind. */
async function memorySize(client: Client, workflowId: string): Promise<IdleReflection['memory'] | undefined> {
  const memory = await client.workflow
    .getHandle(workflowId)
    .query(memoryQuery)
    .catch(() => undefined);
  return memory && { skills: memory.skills.length, failures: memory.history.length };
}

/** True when ending the reflection would lose learned skills or failure history. */
export function holdsMemory(reflection: IdleReflection): boolean {
  return reflection.memory === undefined || reflection.memory.skills > 0 || reflection.memory.failures > 0;
}

/** When the current run last got a failure signal; without one, its start (a continued run follows its last signal). */
async function lastFailureMs(client: Client, workflowId: string, runStartMs: number): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const signalled = (history.events ?? []).filter((event) => event.workflowExecutionSignaledEventAttributes != null);
  const last = signalled.at(-1);
  return last === undefined ? runStartMs : tsToMs(last.eventTime);
}

/** Running reflection workflows (of `project` only, when given) without a failure for `olderThanMs`. */
export async function findIdleReflections(
  client: Client,
  options: { project?: string; olderThanMs: number; nowMs: number },
): Promise<IdleReflection[]> {
  const prefix = options.project === undefined ? 'reflection-' : `reflection-${options.project}-`;
  const idle: IdleReflection[] = [];
  for await (const execution of client.workflow.list({
    query: 'WorkflowType = "reflectionWorkflow" AND ExecutionStatus = "Running"',
  })) {
    if (!execution.workflowId.startsWith(prefix)) continue;
    const last = await lastFailureMs(client, execution.workflowId, execution.startTime.getTime());
    if (options.nowMs - last <= options.olderThanMs) continue;
    const memory = await memorySize(client, execution.workflowId);
    idle.push({ workflowId: execution.workflowId, lastFailureMs: last, ...(memory && { memory }) });
  }
  return idle;
}

export async function endReflection(client: Client, reflection: IdleReflection, olderThan: string): Promise<void> {
  await client.workflow
    .getHandle(reflection.workflowId)
    .terminate(`taskloop clean: no failure for more than ${olderThan}`);
}
