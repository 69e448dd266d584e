// Starts each arm's workflow, or finds it when this eval was started before (a killed CLI run again resumes it), and
// waits for every arm, printing a line whenever an arm's progress changes.
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { ArmResult } from '../../domain/eval/records.js';
import { evalArmWorkflowId, type EvalArmInput, type evalArmWorkflow } from '../../workflows/eval-arm.js';
import { evalArmStateQuery } from '../../workflows/eval-messages.js';
import { ProjectKey } from '../../workflows/search-attributes.js';

export type ArmHandle = WorkflowHandle<typeof evalArmWorkflow>;

export async function startOrFindArm(
  client: Client,
  input: EvalArmInput,
  taskQueue: string,
): Promise<{ handle: ArmHandle; started: boolean }> {
  const workflowId = evalArmWorkflowId(input.evalId, input.arm.id);
  try {
    const handle = await client.workflow.start<typeof evalArmWorkflow>('evalArmWorkflow', {
      taskQueue,
      workflowId,
      args: [input],
      // A finished arm is reported, not run again; one that failed (a bug, a termination) may be started afresh.
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
      typedSearchAttributes: [{ key: ProjectKey, value: `${input.evalId}-${input.arm.id}` }],
      staticSummary: `eval ${input.evalId} arm ${input.arm.id}: ${input.arm.label} on ${input.instances.length} instances`,
    });
    return { handle, started: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      return { handle: client.workflow.getHandle(workflowId), started: false };
    throw error;
  }
}

const progressOf = (state: ArmResult) =>
  `${state.arm.id} (${state.arm.label}): ${state.runs.length}/${state.total} done, ${state.runs.filter((r) => r.verification.resolved).length} resolved`;

/** Every arm's result, in the order given; `say` gets a line per progress change while they run. */
export async function awaitArms(
  handles: ArmHandle[],
  say: (line: string) => void,
  pollMs = 2000,
): Promise<ArmResult[]> {
  const last = new Map<string, string>();
  let done = false;
  const poll = async () => {
    while (!done) {
      await Promise.all(
        handles.map(async (handle) => {
          try {
            const line = progressOf(await handle.query(evalArmStateQuery));
            if (last.get(handle.workflowId) !== line) say(line);
            last.set(handle.workflowId, line);
          } catch {
            // No worker answers queries right now: the next poll tries again.
          }
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  const polling = poll();
  try {
    return await Promise.all(handles.map((handle) => handle.result()));
  } finally {
    done = true;
    await polling;
  }
}
