import { describe, expect, it } from 'vitest';
import { appendTasks, validateAddedTasks } from '../../../../domain/project/added-tasks.js';
import { plannedTask, projectState } from './fixtures.js';

const newTask = (id: string, dependsOn: string[] = [], spec: Record<string, unknown> = {}) => ({
  spec: { id, goal: `Do ${id}`, models: { coder: 'scripted:/s.json' }, ...spec },
  milestone: 'm2',
  feature: 'later',
  dependsOn,
});

describe('validateAddedTasks', () => {
  it('accepts new tasks depending on existing and on each other, filling in project, repo and spec defaults', () => {
    const state = projectState(plannedTask('a'));
    const result = validateAddedTasks(state, [newTask('c', ['b']), newTask('b', ['a'])]);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.map((task) => [task.spec.id, task.dependsOn])).toEqual([
      ['c', ['b']],
      ['b', ['a']],
    ]);
    expect(result.data[0]!.spec).toMatchObject({
      project: 'demo',
      repo: '/repos/demo',
      maxRetries: 2,
      testCommand: ['python3', '-m', 'pytest'],
    });
  });

  it('defaults milestone, feature and dependsOn when left out', () => {
    const result = validateAddedTasks(projectState(plannedTask('a')), [
      { spec: { id: 'b', goal: 'g', models: { coder: 'openai:m' } } },
    ]);
    expect(result).toMatchObject({ success: true, data: [{ milestone: 'added', feature: 'added', dependsOn: [] }] });
  });

  it('refuses a bad spec, another project or repo, naming the task and field', () => {
    const state = projectState(plannedTask('a'));
    const result = validateAddedTasks(state, [
      newTask('b', [], { maxRetries: -1 }),
      newTask('c', [], { project: 'other', repo: '/elsewhere' }),
    ]);
    expect(result.success).toBe(false);
    if (result.success) return;
    const lines = result.error.split('\n');
    expect(lines.some((line) => line.startsWith('tasks[0].spec.maxRetries:'))).toBe(true);
    expect(lines).toContain(`tasks[1].spec.project: got "other", but this project's project is "demo"; leave it out`);
    expect(lines.some((line) => line.startsWith('tasks[1].spec.repo: got "/elsewhere"'))).toBe(true);
  });

  it('refuses a duplicate id, an unknown dependency and a cycle through an existing task', () => {
    const state = projectState(plannedTask('a'));
    const duplicate = validateAddedTasks(state, [newTask('a')]);
    expect(duplicate).toMatchObject({
      success: false,
      error: "tasks[0]: task 'a' is already in the project; choose a new id",
    });
    const unknown = validateAddedTasks(state, [newTask('b', ['zz'])]);
    expect(unknown).toMatchObject({
      success: false,
      error: "tasks[0]: task 'b' depends on 'zz', which is not in the project",
    });
    const cycle = validateAddedTasks(state, [newTask('b', ['c']), newTask('c', ['b', 'a'])]);
    expect(cycle).toMatchObject({ success: false, error: expect.stringContaining('cycle: b -> c -> b') });
  });

  it('refuses an empty or missing list, and any add once the project finished or was cancelled', () => {
    const state = projectState(plannedTask('a'));
    expect(validateAddedTasks(state, [])).toMatchObject({
      success: false,
      error: expect.stringContaining('tasks: expected a non-empty list'),
    });
    expect(validateAddedTasks(state, undefined)).toMatchObject({
      success: false,
      error: expect.stringContaining('got nothing'),
    });
    state.cancelRequested = true;
    expect(validateAddedTasks(state, [newTask('b')])).toMatchObject({
      success: false,
      error: expect.stringContaining('is cancelled'),
    });
  });
});

describe('appendTasks', () => {
  it('adds PENDING records and places them in the outline, creating the milestone and feature', () => {
    const state = projectState(plannedTask('a'));
    const result = validateAddedTasks(state, [newTask('b', ['a'])]);
    if (!result.success) throw new Error(result.error);
    appendTasks(state, result.data);
    expect(state.tasks.map((task) => [task.id, task.status, task.workflowId])).toEqual([
      ['a', 'PENDING', 'task-demo-a'],
      ['b', 'PENDING', 'task-demo-b'],
    ]);
    expect(state.milestones.map((m) => [m.id, m.features.map((f) => [f.id, f.taskIds])])).toEqual([
      ['m1', [['f1', ['a']]]],
      ['m2', [['later', ['b']]]],
    ]);
  });
});
