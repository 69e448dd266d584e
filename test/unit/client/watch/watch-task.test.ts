import { describe, expect, it } from 'vitest';
import { progressBar } from '../../../../client/watch/watch-project.js';
import { describeTaskProgress } from '../../../../client/watch/watch-task.js';
import type { TaskState } from '../../../../domain/task-state.js';

describe('describeTaskProgress', () => {
  it('gives status, phase and attempt, and the class and node of the last failed attempt', () => {
    const state = {
      status: 'RUNNING',
      phase: 'code',
      attempt: 2,
      attempts: [
        {
          attempt: 1,
          status: 'REWORK_REQUIRED',
          startedAt: '',
          envRetries: 0,
          failure: { node: 'test', failureClass: 'model_problem', reason: 'tests failed' },
        },
        { attempt: 2, status: 'RUNNING', startedAt: '', envRetries: 0 },
      ],
    } as unknown as TaskState;
    expect(describeTaskProgress(state)).toBe('RUNNING, phase code, attempt 2');
    expect(describeTaskProgress({ ...state, attempts: state.attempts.slice(0, 1) })).toBe(
      'RUNNING, phase code, attempt 2 (last failure: model_problem at test)',
    );
  });
});

describe('progressBar', () => {
  it('fills in proportion to the tasks that have ended, whatever way they ended', () => {
    const task = (status: string) => ({
      id: status,
      status,
      workflowId: '',
      dependsOn: [],
      milestone: '',
      feature: '',
      runs: 0,
      attempts: 0,
    });
    const view = {
      project: 'p',
      status: 'RUNNING',
      paused: false,
      concurrency: 1,
      continuedAsNew: 0,
      tasks: ['COMPLETED', 'SKIPPED', 'RUNNING', 'PENDING'].map(task),
    } as never;
    expect(progressBar(view, 8)).toBe('[####....] 2/4');
  });
});
