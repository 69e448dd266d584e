// A tiny workflow the plumbing integration test runs to prove the whole path works: a worker serves the shared
// queue, search attributes are registered, and signals and queries reach the workflow.
import { condition, defineQuery, defineSignal, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { PhaseKey, TaskIdKey } from './search-attributes.js';

export const probeAnswerSignal = defineSignal<[string]>('answer');
export const probeStateQuery = defineQuery<{ phase: string; answer?: string }>('state');

export async function probeWorkflow(input: { taskId: string }): Promise<string> {
  let answer: string | undefined;
  let phase = 'waiting';
  setHandler(probeStateQuery, () => ({ phase, answer }));
  setHandler(probeAnswerSignal, (value) => {
    answer = value;
    phase = 'answered';
  });
  upsertSearchAttributes([
    { key: TaskIdKey, value: input.taskId },
    { key: PhaseKey, value: phase },
  ]);
  await condition(() => answer !== undefined, '10 minutes');
  upsertSearchAttributes([{ key: PhaseKey, value: phase }]);
  return answer ?? 'no answer';
}
