import { describe, expect, it } from 'vitest';
import { createTaskEvent, taskEventTypes } from '../../../domain/events.js';

const base = { workflowId: 'task-default-fix-1', taskId: 'fix-1', project: 'default', attempt: 2 };

describe('createTaskEvent', () => {
  it("lists the original loop event types plus cancel, a person's approval answers and the landing", () => {
    expect([...taskEventTypes].sort()).toEqual(
      [
        'APPROVAL_REQUESTED',
        'CHANGE_LANDED',
        'LANDING_SENT_BACK',
        'APPROVAL_TIMED_OUT',
        'APPROVED',
        'CHANGES_REQUESTED',
        'REJECTED',
        'COMMIT_CREATED',
        'REVIEW_FAILED',
        'TASK_CANCELLED',
        'TASK_COMPLETED',
        'TASK_FAILED',
        'TASK_RETRY_EXHAUSTED',
        'TEST_FAILED',
      ].sort(),
    );
  });

  it('builds an event whose id is the workflow id and sequence number', () => {
    const event = createTaskEvent(
      'TASK_FAILED',
      base,
      { will_retry: true, failure_class: 'model_problem' },
      '2025-01-01T00:00:00.000Z',
      7,
    );
    expect(event).toEqual({
      id: 'task-default-fix-1#7',
      type: 'TASK_FAILED',
      ...base,
      at: '2025-01-01T00:00:00.000Z',
      data: { will_retry: true, failure_class: 'model_problem' },
    });
  });

  it('gives the same id to a retried append of the same event', () => {
    const first = createTaskEvent('COMMIT_CREATED', base, { sha: 'abc' }, '2025-01-01T00:00:00.000Z', 3);
    const again = createTaskEvent('COMMIT_CREATED', base, { sha: 'abc' }, '2025-01-01T00:00:05.000Z', 3);
    expect(again.id).toBe(first.id);
  });

  it('copies data so later changes to the caller object do not leak in', () => {
    const data: Record<string, unknown> = { passed: 3 };
    const event = createTaskEvent('TEST_FAILED', base, data, '2025-01-01T00:00:00.000Z', 1);
    data.passed = 4;
    expect(event.data.passed).toBe(3);
  });

  it('requires will_retry on TASK_FAILED at compile time', () => {
    // @ts-expect-error: TASK_FAILED data must say whether another attempt follows
    createTaskEvent('TASK_FAILED', base, { reason: 'x' }, '2025-01-01T00:00:00.000Z', 1);
    expect(true).toBe(true);
  });
});
