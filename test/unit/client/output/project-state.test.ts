import { describe, expect, it } from 'vitest';
import { formatProjectState } from '../../../../client/output/project-state.js';
import { formatScheduleList } from '../../../../client/output/schedule-list.js';
import { formatWorkflowList } from '../../../../client/output/workflow-list.js';

describe('formatProjectState', () => {
  it('says the project status and gives each task its state, phase, attempts and dependencies', () => {
    const text = formatProjectState({
      project: 'calc',
      status: 'RUNNING',
      paused: true,
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
          milestone: 'm',
          feature: 'f',
          runs: 1,
          attempts: 2,
          attempt: 2,
          phase: 'done',
        },
        {
          id: 'b',
          status: 'PENDING',
          state: 'PENDING',
          durationMs: 0,
          workflowId: 'task-calc-b',
          dependsOn: ['a'],
          milestone: 'm',
          feature: 'f',
          runs: 0,
          attempts: 0,
        },
      ],
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe('project calc: RUNNING (pause requested), 2 tasks, concurrency 2');
    expect(lines[2]).toMatch(/^ {2}a +COMPLETED +done +2 +2$/);
    expect(lines[3]).toMatch(/^ {2}b +PENDING +0 +a$/);
  });
});

describe('formatWorkflowList and formatScheduleList', () => {
  it('say so when nothing matches', () => {
    expect(formatWorkflowList([])).toBe('no taskloop workflows match');
    expect(formatScheduleList([])).toContain('no taskloop schedules');
  });

  it('show a schedule interval in its largest whole unit and the last run', () => {
    const text = formatScheduleList([
      {
        scheduleId: 'schedule-calc',
        project: 'calc',
        everyMs: 5_400_000,
        paused: false,
        tasksFile: null,
        nextRuns: ['2026-01-01T01:00:00.000Z'],
        recentRuns: [{ workflowId: 'project-calc-2026-01-01T00:00:00Z', scheduledAt: '2026-01-01T00:00:00.000Z' }],
      },
    ]);
    expect(text.split('\n')[1]).toMatch(
      /^ {2}schedule-calc +calc +90m +active +2026-01-01 01:00:00Z +project-calc-2026-01-01T00:00:00Z$/,
    );
  });
});
