// The project report's review and landing lists from tasks' records: the queue position of a change (in hand, or
// behind others), a wait's length as a person reads it, and what is left out (a closed task's stale wait).
import { describe, expect, it } from 'vitest';
import { reviewAndLanding, waitText, type TaskReviewRecord } from '../../../../domain/project/review-and-landing.js';

const queued = (taskId: string, queuedAt: string): TaskReviewRecord => ({
  taskId,
  workflowId: `task-p-${taskId}`,
  status: 'RUNNING',
  landing: { status: 'queued', target: 'main', sha: 'b'.repeat(40), queuedAt, lander: 'land-main-1' },
});

describe("the report's review and landing lists", () => {
  it('names where each queued change stands in its queue, oldest wait first', () => {
    const queue = { current: { taskId: 'x', step: 'test' }, waiting: [{ taskId: 'y' }, { taskId: 'z' }] };
    const lists = reviewAndLanding(
      [queued('z', '2026-12-07T10:00:20Z'), queued('x', '2026-12-07T10:00:00Z'), queued('y', '2026-12-07T10:00:10Z')],
      new Map([['land-main-1', queue]]),
      Date.parse('2026-12-07T10:01:00Z'),
    );
    expect(lists.waiting.map((wait) => [wait.taskId, wait.waitsFor, wait.where, waitText(wait.waitedMs)])).toEqual([
      ['x', 'the landing queue of main', 'landing now (test)', '1 min 0 s'],
      ['y', 'the landing queue of main', 'position 2 of 3', '50 s'],
      ['z', 'the landing queue of main', 'position 3 of 3', '40 s'],
    ]);
    expect(lists.landed).toEqual([]);
  });

  it('a queue that could not be read says queued; a closed task is not waiting', () => {
    const lists = reviewAndLanding(
      [queued('a', '2026-12-07T10:00:00Z'), { ...queued('b', '2026-12-07T10:00:00Z'), status: 'CANCELLED' }],
      new Map(),
      Date.parse('2026-12-07T10:00:00Z'),
    );
    expect(lists.waiting.map((wait) => `${wait.taskId}: ${wait.where}`)).toEqual(['a: queued']);
  });

  it('waits read in the unit that suits them', () => {
    expect([5_000, 185_000, 7_440_000, 97_200_000].map(waitText)).toEqual(['5 s', '3 min 5 s', '2 h 4 min', '1 d 3 h']);
  });
});
