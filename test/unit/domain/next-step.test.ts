import { describe, expect, it } from 'vitest';
import { failureClasses } from '../../../domain/failure-class.js';
import { nextStepFor } from '../../../domain/next-step.js';

const failed = (recommendation: (typeof failureClasses)[number]) =>
  nextStepFor({ workflowId: 'task-p-t1', status: 'FAILED', recommendation });

describe('the next step after a failed task', () => {
  it('is a retry with a hint where a person can help the coder', () => {
    for (const failureClass of ['code_defect', 'replan', 'intent_ambiguity', 'context_problem'] as const)
      expect(failed(failureClass)).toMatch(/^taskloop retry task-p-t1 --hint "[^"]+"/);
  });

  it('names a step for every class, with the task id where the step is a command on it', () => {
    for (const failureClass of failureClasses) expect(failed(failureClass)).toBeTruthy();
    expect(failed('environment_problem')).toContain('then taskloop retry task-p-t1');
    expect(failed('model_problem')).toContain('--model');
    expect(failed('split_task')).toContain('taskloop schedule');
  });

  it('says nothing for a task that did not fail, or whose class is unknown', () => {
    expect(nextStepFor({ workflowId: 'w', status: 'COMPLETED' })).toBeUndefined();
    expect(nextStepFor({ workflowId: 'w', status: 'CANCELLED', recommendation: 'code_defect' })).toBeUndefined();
    expect(nextStepFor({ workflowId: 'w', status: 'FAILED' })).toBeUndefined();
  });
});
