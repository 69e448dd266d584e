import { describe, expect, it } from 'vitest';
import type { ProjectStateView } from '../../../../domain/project/project-report.js';
import { buildLiveReport } from '../../../../client/projects/live-report.js';

const view: ProjectStateView = {
  project: 'calc',
  status: 'RUNNING',
  paused: false,
  concurrency: 2,
  continuedAsNew: 0,
  tasks: [
    {
      id: 'a',
      status: 'COMPLETED',
      state: 'COMPLETED',
      durationMs: 0,
      workflowId: 'task-calc-a',
      dependsOn: [],
      milestone: 'm1',
      feature: 'f1',
      runs: 1,
      attempts: 1,
      attempt: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:04.000Z',
    },
    {
      id: 'b',
      status: 'RUNNING',
      state: 'RUNNING',
      durationMs: 0,
      workflowId: 'task-calc-b',
      dependsOn: ['a'],
      milestone: 'm1',
      feature: 'f1',
      runs: 1,
      attempts: 1,
      startedAt: '2026-01-01T00:00:05.000Z',
    },
    {
      id: 'c',
      status: 'PENDING',
      state: 'PENDING',
      durationMs: 0,
      workflowId: 'task-calc-c',
      dependsOn: ['b'],
      milestone: 'm1',
      feature: 'f1',
      runs: 0,
      attempts: 0,
    },
    {
      id: 'd',
      status: 'FAILED',
      state: 'FAILED',
      durationMs: 0,
      workflowId: 'task-calc-d',
      dependsOn: [],
      milestone: 'm1',
      feature: 'f1',
      runs: 1,
      attempts: 2,
      failureClass: 'model_problem',
      reason: 'tests failed',
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:09.000Z',
    },
  ],
};

describe('buildLiveReport', () => {
  it('measures ended tasks start to end, running ones up to now, and pending ones as zero', () => {
    const report = buildLiveReport(view, Date.parse('2026-01-01T00:00:07.500Z'));
    expect(report.tasks.map((task) => [task.id, task.status, task.durationMs])).toEqual([
      ['a', 'COMPLETED', 4000],
      ['b', 'RUNNING', 2500],
      ['c', 'PENDING', 0],
      ['d', 'FAILED', 9000],
    ]);
  });

  it('gives the rates so far over all tasks and marks itself live with the project status', () => {
    const report = buildLiveReport(view, Date.parse('2026-01-01T00:00:07.500Z'));
    expect(report).toMatchObject({
      project: 'calc',
      status: 'RUNNING',
      live: true,
      total: 4,
      passRateAtAttempt1: 0.25,
      passRate: 0.25,
    });
    expect(report.counts).toMatchObject({ COMPLETED: 1, RUNNING: 1, PENDING: 1, FAILED: 1 });
    expect(report.tasks[3]).toMatchObject({
      failureClass: 'model_problem',
      reason: 'tests failed',
      workflowId: 'task-calc-d',
    });
  });
});
