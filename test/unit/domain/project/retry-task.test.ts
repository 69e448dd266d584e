import { describe, expect, it } from 'vitest';
import { planRetry, resetForRetry } from '../../../../domain/project/retry-task.js';
import type { TaskRunStatus } from '../../../../domain/project/scheduling.js';
import { plannedTask, projectState } from './fixtures.js';

/** a <- b <- c, a <- d; x independent, y <- x. */
function stateWith(states: Record<string, TaskRunStatus>) {
  const state = projectState(
    plannedTask('a'),
    plannedTask('b', 'a'),
    plannedTask('c', 'b'),
    plannedTask('d', 'a'),
    plannedTask('x'),
    plannedTask('y', 'x'),
  );
  for (const task of state.tasks) {
    task.status = states[task.id] ?? 'COMPLETED';
    task.reason = `was ${task.status}`;
    task.endedAt = '2024-01-01T00:00:05.000Z';
  }
  return state;
}

describe('planRetry', () => {
  it('resets a failed task and every dependant skipped because of it, but not tasks skipped for another failure', () => {
    const state = stateWith({ a: 'FAILED', b: 'SKIPPED', c: 'SKIPPED', d: 'SKIPPED', x: 'FAILED', y: 'SKIPPED' });
    expect(planRetry(state, 'a')).toEqual({ success: true, data: { reset: ['a', 'b', 'c', 'd'] } });
  });

  it('retries a cancelled task alone when its dependants are not skipped', () => {
    const state = stateWith({ x: 'CANCELLED', y: 'CANCELLED' });
    expect(planRetry(state, 'x')).toEqual({ success: true, data: { reset: ['x'] } });
  });

  it('refuses a task that is not FAILED, CANCELLED or SKIPPED, naming its state', () => {
    const state = stateWith({ a: 'RUNNING' });
    expect(planRetry(state, 'a')).toEqual({
      success: false,
      error: "task 'a' is RUNNING: only FAILED, CANCELLED or SKIPPED tasks can be retried",
    });
    expect(planRetry(state, 'b')).toMatchObject({ success: false, error: expect.stringContaining('is COMPLETED') });
  });

  it('refuses a skipped task whose dependency still blocks it, and says which task to retry', () => {
    const state = stateWith({ a: 'FAILED', b: 'SKIPPED', c: 'SKIPPED' });
    expect(planRetry(state, 'c')).toMatchObject({
      success: false,
      error: expect.stringContaining("waits on 'b', which is SKIPPED; retry 'b' instead"),
    });
  });

  it('refuses an unknown task, listing the known ones, and any retry once the project finished or was cancelled', () => {
    const state = stateWith({ a: 'FAILED' });
    expect(planRetry(state, 'zz')).toMatchObject({
      success: false,
      error: expect.stringMatching(/taskId: no task 'zz' .*tasks: a, b, c, d, x, y/),
    });
    state.cancelRequested = true;
    expect(planRetry(state, 'a')).toMatchObject({ success: false, error: expect.stringContaining('is cancelled') });
    state.finished = true;
    expect(planRetry(state, 'a')).toMatchObject({ success: false, error: expect.stringContaining('has finished') });
  });
});

describe('resetForRetry', () => {
  it('puts the tasks back to PENDING, clears their end, and gives the hint to the retried task only', () => {
    const state = stateWith({ a: 'FAILED', b: 'SKIPPED' });
    state.tasks[0]!.failureClass = 'split_task';
    resetForRetry(state, ['a', 'b'], 'add, do not multiply');
    const [a, b] = state.tasks;
    expect(a).toMatchObject({ status: 'PENDING', hint: 'add, do not multiply' });
    expect(b).toMatchObject({ status: 'PENDING' });
    for (const task of [a, b])
      for (const key of ['reason', 'endedAt', 'failureClass']) expect(task).not.toHaveProperty(key);
    expect(b).not.toHaveProperty('hint');
    expect(state.tasks[2]!.status).toBe('COMPLETED');
  });
});
