import { describe, expect, it } from 'vitest';
import { addTasks, nextActions } from '../../../../domain/project/scheduling.js';
import type { ScheduledTask, TaskRunStatus } from '../../../../domain/project/scheduling.js';

const task = (id: string, status: TaskRunStatus, ...dependsOn: string[]): ScheduledTask => ({ id, status, dependsOn });

describe('nextActions', () => {
  it('starts only tasks whose dependencies are all completed, in plan order', () => {
    const tasks = [
      task('a', 'COMPLETED'),
      task('b', 'PENDING', 'a', 'c'),
      task('c', 'PENDING'),
      task('d', 'PENDING', 'a'),
    ];
    expect(nextActions({ tasks, concurrency: 5, paused: false })).toEqual({ start: ['c', 'd'], skip: [], done: false });
  });

  it('counts running tasks against the concurrency limit', () => {
    const tasks = [task('a', 'RUNNING'), task('b', 'PENDING'), task('c', 'PENDING'), task('d', 'PENDING')];
    expect(nextActions({ tasks, concurrency: 2, paused: false }).start).toEqual(['b']);
    expect(
      nextActions({
        tasks: [task('x', 'RUNNING'), task('y', 'RUNNING'), ...tasks.slice(1)],
        concurrency: 2,
        paused: false,
      }).start,
    ).toEqual([]);
  });

  it('never runs more than the concurrency limit over a whole simulated run, and runs every task after its dependencies', () => {
    const tasks = [
      task('setup', 'PENDING'),
      task('api', 'PENDING', 'setup'),
      task('db', 'PENDING', 'setup'),
      task('cache', 'PENDING', 'setup'),
      task('ui', 'PENDING', 'api'),
      task('docs', 'PENDING'),
      task('release', 'PENDING', 'ui', 'db', 'cache', 'docs'),
    ];
    const completedOrder: string[] = [];
    let maxRunning = 0;
    for (let step = 0; step < 50; step += 1) {
      const actions = nextActions({ tasks, concurrency: 2, paused: false });
      if (actions.done) break;
      for (const id of actions.start) tasks.find((t) => t.id === id)!.status = 'RUNNING';
      const running = tasks.filter((t) => t.status === 'RUNNING');
      maxRunning = Math.max(maxRunning, running.length);
      // Finish one running task at a time, the oldest first.
      const finished = running[0]!;
      for (const dep of finished.dependsOn) expect(completedOrder).toContain(dep);
      finished.status = 'COMPLETED';
      completedOrder.push(finished.id);
    }
    expect(maxRunning).toBe(2);
    expect(completedOrder).toHaveLength(tasks.length);
    expect(tasks.every((t) => t.status === 'COMPLETED')).toBe(true);
  });

  it('starts nothing while paused', () => {
    const tasks = [task('a', 'PENDING'), task('b', 'PENDING')];
    expect(nextActions({ tasks, concurrency: 2, paused: true })).toEqual({ start: [], skip: [], done: false });
  });

  it('skips dependants of a failed task in one call, cascading through the graph, and names the dependency', () => {
    const tasks = [
      task('a', 'FAILED'),
      task('b', 'PENDING', 'a'),
      task('c', 'PENDING', 'b'),
      task('d', 'PENDING', 'c'),
      task('e', 'PENDING'),
      task('f', 'PENDING', 'x-cancelled'),
      task('x-cancelled', 'CANCELLED'),
    ];
    const actions = nextActions({ tasks, concurrency: 1, paused: false });
    expect(actions.skip).toEqual([
      { id: 'b', reason: "dependency 'a' is FAILED" },
      { id: 'c', reason: "dependency 'b' is SKIPPED" },
      { id: 'd', reason: "dependency 'c' is SKIPPED" },
      { id: 'f', reason: "dependency 'x-cancelled' is CANCELLED" },
    ]);
    expect(actions.start).toEqual(['e']);
    expect(actions.done).toBe(false);
  });

  it('is done when nothing is pending or running, including after this call skips the rest', () => {
    expect(
      nextActions({ tasks: [task('a', 'COMPLETED'), task('b', 'FAILED')], concurrency: 2, paused: false }).done,
    ).toBe(true);
    expect(
      nextActions({ tasks: [task('a', 'FAILED'), task('b', 'PENDING', 'a')], concurrency: 2, paused: true }),
    ).toEqual({
      start: [],
      skip: [{ id: 'b', reason: "dependency 'a' is FAILED" }],
      done: true,
    });
    expect(nextActions({ tasks: [task('a', 'RUNNING')], concurrency: 2, paused: false }).done).toBe(false);
    expect(nextActions({ tasks: [], concurrency: 2, paused: false })).toEqual({ start: [], skip: [], done: true });
  });

  it('ends a run that could only hang: pending tasks in a cycle are skipped', () => {
    const actions = nextActions({
      tasks: [task('a', 'PENDING', 'b'), task('b', 'PENDING', 'a')],
      concurrency: 2,
      paused: false,
    });
    expect(actions.skip.map((s) => s.id)).toEqual(['a', 'b']);
    expect(actions.done).toBe(true);
  });
});

describe('addTasks', () => {
  const existing = [
    { id: 'a', dependsOn: [] },
    { id: 'b', dependsOn: ['a'] },
  ];

  it('accepts new tasks that depend on existing and added tasks, returning all tasks in order', () => {
    const result = addTasks(existing, [
      { id: 'd', dependsOn: ['c'] },
      { id: 'c', dependsOn: ['b'] },
    ]);
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.tasks.map((t) => t.id)).toEqual(['a', 'b', 'd', 'c']);
    expect(result.data.order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses an id already in the project and one repeated among the added tasks', () => {
    const result = addTasks(existing, [
      { id: 'b', dependsOn: [] },
      { id: 'n', dependsOn: [] },
      { id: 'n', dependsOn: [] },
    ]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors.map((e) => [e.taskId, e.index, e.message])).toEqual([
      ['b', 0, "task 'b' is already in the project; choose a new id"],
      ['n', 2, "duplicate task id 'n' among the added tasks (first at index 1, again at index 2)"],
    ]);
  });

  it('refuses an unknown dependency and a cycle among the added tasks', () => {
    const unknown = addTasks(existing, [{ id: 'c', dependsOn: ['zz'] }]);
    expect(unknown.success).toBe(false);
    if (!unknown.success)
      expect(unknown.errors[0]).toMatchObject({
        index: 0,
        message: "task 'c' depends on 'zz', which is not in the project",
      });

    const cycle = addTasks(existing, [
      { id: 'c', dependsOn: ['a', 'd'] },
      { id: 'd', dependsOn: ['c'] },
    ]);
    expect(cycle.success).toBe(false);
    if (!cycle.success) expect(cycle.errors[0]!.message).toMatch(/^cycle: c -> d -> c/);
  });
});
