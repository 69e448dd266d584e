// What a person does after a task FAILED, by the class of its final failure: the command to run next. A retry with a
// hint where a person's words can help the coder; where they cannot, the fix outside taskloop and then a retry.
import { failureClasses, type FailureClass } from './failure-class.js';

/** A retry whose hint a person fills in: `what` says what the hint should tell the coder. */
const retryWithHint = (id: string, what: string) => `taskloop retry ${id} --hint "${what}"`;

const steps: Record<FailureClass, (id: string) => string> = {
  code_defect: (id) =>
    `${retryWithHint(id, 'what the fix must do: the function at fault and the value the tests expect')} (the failing tests are above)`,
  replan: (id) => `${retryWithHint(id, 'the approach to take instead')} (the review or judge rejected this one)`,
  intent_ambiguity: (id) => retryWithHint(id, 'what the goal means: the behaviour you expect, in a sentence'),
  context_problem: (id) => retryWithHint(id, 'the files and symbols the change needs'),
  model_problem: (id) =>
    `the model's replies could not be used: run the task with another coder model (taskloop run … --model SPEC), or try it again with taskloop retry ${id}`,
  environment_problem: (id) =>
    `fix what the reason above names (a key, a module, the test command or the server), then taskloop retry ${id}`,
  missing_capability: () =>
    'this agent cannot do what the task needs: run it with an agent version that has the capability, or do it by hand',
  budget_exhausted: (id) =>
    `the budget is spent: raise it (the task's budgets) and run the task again, or narrow it with taskloop retry ${id} --hint "the one part to do first"`,
  split_task: () => 'the task is too big for one change: split it into smaller tasks (a tasks file: taskloop schedule)',
  merge_conflict: (id) =>
    `${retryWithHint(id, 'how the change should fit what landed on the target meanwhile')} (the conflict or the failing tests are above)`,
  rejected_by_reviewer: () =>
    'a reviewer rejected the change (the reason above); its branch keeps it: run the task again with a goal that says what they want instead, or take what you need from the branch',
  approval_timed_out: (id) =>
    `no one answered in time (approvalTimeout); the branch keeps the change: read it (taskloop show ${id}) and merge it by hand, or run the task again`,
};

const isFailureClass = (value: string | undefined): value is FailureClass =>
  (failureClasses as readonly (string | undefined)[]).includes(value);

/** The next step after a FAILED task, or undefined when it did not fail or no known class was recorded. */
export function nextStepFor(outcome: {
  workflowId: string;
  status: string;
  recommendation?: string;
}): string | undefined {
  if (outcome.status !== 'FAILED' || !isFailureClass(outcome.recommendation)) return undefined;
  return steps[outcome.recommendation](outcome.workflowId);
}
