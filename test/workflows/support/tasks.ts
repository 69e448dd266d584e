// Starting task workflows on the test server and reading how they ended, the way the CLI does it.
import type { WorkflowHandle } from '@temporalio/client';
import { parseTaskSpec, taskWorkflowId, type TaskSpec, type TaskSpecInput } from '../../../domain/task-spec.js';
import type { TaskState } from '../../../domain/task-state.js';
import { stateQuery } from '../../../workflows/messages.js';
import type { taskWorkflow } from '../../../workflows/task.js';
import { uniqueId, type StubRun } from './environment.js';

export type TaskHandle = WorkflowHandle<typeof taskWorkflow>;

/** A task of the test's project (so its activities reach the test's stubs). */
export function stubSpec(run: StubRun, input: Partial<TaskSpecInput> = {}): TaskSpec {
  const parsed = parseTaskSpec({
    id: uniqueId('t'),
    project: run.project,
    repo: '/nowhere/repo',
    goal: 'make test_sub pass',
    models: { coder: 'scripted:coder.json' },
    ...input,
  });
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.data;
}

export async function startStubTask(run: StubRun, spec: TaskSpec = stubSpec(run), hint?: string): Promise<TaskHandle> {
  // As the CLI's startTask, without its search attributes (the test server does not know them).
  return run.client.workflow.start<typeof taskWorkflow>('taskWorkflow', {
    taskQueue: run.taskQueue,
    workflowId: taskWorkflowId(spec),
    args: [{ spec, hint }],
  });
}

export { taskOutcome as outcomeOf } from '../../support/task-outcome.js';

/** Polls the state query until `predicate` holds (the test server answers at once; no time passes for the task). */
export async function waitForState(
  handle: WorkflowHandle,
  what: string,
  predicate: (state: TaskState) => boolean,
): Promise<TaskState> {
  for (let tries = 0; tries < 300; tries++) {
    const state = await handle.query(stateQuery).catch((error: Error) => {
      if (error.name === 'QueryNotRegisteredError') return undefined;
      throw error;
    });
    if (state && predicate(state)) return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the task never reached: ${what}`);
}
