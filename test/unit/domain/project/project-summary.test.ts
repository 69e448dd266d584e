import { describe, expect, it } from 'vitest';
import { summarizeProject } from '../../../../domain/project/project-summary.js';

describe('summarizeProject', () => {
  it('counts states and computes pass rates at attempt 1 and overall', () => {
    const summary = summarizeProject({
      project: 'demo',
      tasks: [
        { id: 'a', state: 'COMPLETED', attempts: 1, passedAtAttempt: 1, durationMs: 1000 },
        { id: 'b', state: 'COMPLETED', attempts: 2, passedAtAttempt: 2, durationMs: 3000 },
        { id: 'c', state: 'FAILED', attempts: 3, durationMs: 5000, failureClass: 'model', reason: 'tests still fail' },
        { id: 'd', state: 'SKIPPED', attempts: 0, durationMs: 0, reason: "dependency 'c' is FAILED" },
        { id: 'e', state: 'COMPLETED', attempts: 1, durationMs: 500 },
      ],
    });
    expect(summary.total).toBe(5);
    expect(summary.counts).toEqual({ PENDING: 0, RUNNING: 0, COMPLETED: 3, FAILED: 1, SKIPPED: 1, CANCELLED: 0 });
    expect(summary.passRateAtAttempt1).toBeCloseTo(2 / 5);
    expect(summary.passRate).toBeCloseTo(3 / 5);
    expect(summary.totalDurationMs).toBe(9500);
    expect(summary.tasks[2]).toEqual({
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
