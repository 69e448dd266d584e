import { describe, expect, it } from 'vitest';
import { projectWorkflowId } from '../../../../domain/project/plan.js';
import {
  createProjectState,
  describeProgress,
  findTask,
  projectStatus,
  readCarriedState,
  scheduledRunId,
  type CarriedProjectState,
} from '../../../../domain/project/project-state.js';
import { plannedTask, projectState } from './fixtures.js';

describe('createProjectState', () => {
  it('makes one PENDING record per planned task, with the task workflow id and nothing spent', () => {
    const state = projectState(plannedTask('a'), plannedTask('b', 'a'));
    expect(state.tasks.map((task) => [task.id, task.status, task.workflowId, task.dependsOn])).toEqual([
      ['a', 'PENDING', 'task-demo-a', []],
      ['b', 'PENDING', 'task-demo-b', ['a']],
    ]);
    expect(state.tasks[0]).toMatchObject({
      runs: 0,
      attempts: 0,
      durationMs: 0,
      turnsConsumed: 0,
      telemetry: { modelRequests: 0 },
    });
    expect(state).toMatchObject({
      project: 'demo',
      concurrency: 2,
      paused: false,
      cancelRequested: false,
      finished: false,
      continuedAsNew: 0,
    });
  });

  it('gives the tasks of a scheduled run workflow ids of their own', () => {
    const runId = scheduledRunId('project-demo-2026-11-29T16:00:00Z', 'demo');
    expect(runId).toBe('2026-11-29T160000Z');
    const plan = { project: 'demo', repo: '/r', concurrency: 1, milestones: [], tasks: [plannedTask('a')] };
    expect(createProjectState(plan, runId).tasks[0]?.workflowId).toBe('task-demo-a-2026-11-29T160000Z');
    expect(scheduledRunId('project-demo', 'demo')).toBeUndefined();
    expect(scheduledRunId('project-demo-other-x', 'demo-other')).toBe('x');
  });
});

describe('projectStatus', () => {
  it('is RUNNING, PAUSED while paused, COMPLETED once finished, and CANCELLED from the cancel on', () => {
    const state = projectState(plannedTask('a'));
    expect(projectStatus(state)).toBe('RUNNING');
    state.paused = true;
    expect(projectStatus(state)).toBe('PAUSED');
    state.paused = false;
    state.finished = true;
    expect(projectStatus(state)).toBe('COMPLETED');
    state.cancelRequested = true;
    expect(projectStatus(state)).toBe('CANCELLED');
  });
});

describe('describeProgress', () => {
  it('counts tasks per state for the Web UI', () => {
    const state = projectState(plannedTask('a'), plannedTask('b'), plannedTask('c'));
    state.tasks[0]!.status = 'COMPLETED';
    expect(describeProgress(state)).toBe('**RUNNING**: 3 tasks (1 completed, 2 pending)');
  });
});

describe('findTask', () => {
  it('finds a record by id and throws naming the id when there is none', () => {
    const state = projectState(plannedTask('a'));
    expect(findTask(state, 'a').id).toBe('a');
    expect(() => findTask(state, 'zz')).toThrow("no task 'zz'");
  });
});

describe('projectWorkflowId', () => {
  it('is project-<project>', () => {
    expect(projectWorkflowId('demo')).toBe('project-demo');
  });
});

describe('readCarriedState', () => {
  it("gives each record of taskloop 0.1 (status as `state`) its `status`, and keeps today's records as they are", () => {
    const current = projectState(plannedTask('a'), plannedTask('b', 'a'));
    const [a, b] = current.tasks;
    const { status: _status, ...oldA } = { ...a!, status: 'FAILED' as const, reason: 'tests still fail' };
    const carried: CarriedProjectState = { ...current, tasks: [{ ...oldA, state: 'FAILED' }, b!] };
    const read = readCarriedState(carried);
    expect(read.tasks[0]).toEqual({ ...a, status: 'FAILED', reason: 'tests still fail' });
    expect(read.tasks[0]).not.toHaveProperty('state');
    expect(read.tasks[1]).toBe(b);
    expect({ ...read, tasks: [] }).toEqual({ ...current, tasks: [] });
  });
});
