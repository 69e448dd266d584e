import { describe, expect, it } from 'vitest';
import { summarizeProject } from '../../../../domain/project/project-summary.js';
import type { ProjectTaskLine } from '../../../../domain/project/project-task-line.js';

const line = (task: Pick<ProjectTaskLine, 'id' | 'status' | 'attempts' | 'durationMs'> & Partial<ProjectTaskLine>) => ({
  workflowId: `task-demo-${task.id}`,
  milestone: 'm',
  feature: 'f',
  dependsOn: [],
  runs: 1,
  ...task,
});

describe('summarizeProject', () => {
  it('counts states and computes pass rates at attempt 1 and overall', () => {
    const summary = summarizeProject({
      project: 'demo',
      tasks: [
        line({ id: 'a', status: 'COMPLETED', attempts: 1, passedAtAttempt: 1, durationMs: 1000 }),
        line({ id: 'b', status: 'COMPLETED', attempts: 2, passedAtAttempt: 2, durationMs: 3000 }),
        line({
          id: 'c',
          status: 'FAILED',
          attempts: 3,
          durationMs: 5000,
          failureClass: 'model',
          reason: 'tests still fail',
        }),
        line({ id: 'd', status: 'SKIPPED', attempts: 0, durationMs: 0, reason: "dependency 'c' is FAILED" }),
        line({ id: 'e', status: 'COMPLETED', attempts: 1, durationMs: 500 }),
      ],
    });
    expect(summary.total).toBe(5);
    expect(summary.counts).toEqual({ PENDING: 0, RUNNING: 0, COMPLETED: 3, FAILED: 1, SKIPPED: 1, CANCELLED: 0 });
    expect(summary.passRateAtAttempt1).toBeCloseTo(2 / 5);
    expect(summary.passRate).toBeCloseTo(3 / 5);
    expect(summary.totalDurationMs).toBe(9500);
    expect(summary.tasks[2]).toMatchObject({
      id: 'c',
      status: 'FAILED',
      attempts: 3,
      durationMs: 5000,
      failureClass: 'model',
      reason: 'tests still fail',
    });
    expect(summary.tasks[0]).not.toHaveProperty('failureClass');
  });

  it('gives zero rates for an empty project', () => {
    const summary = summarizeProject({ project: 'empty', tasks: [] });
    expect(summary).toMatchObject({ project: 'empty', total: 0, passRateAtAttempt1: 0, passRate: 0, tasks: [] });
  });
});
