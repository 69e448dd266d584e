import { describe, expect, it } from 'vitest';
import {
  failureEventId,
  maxFailureEvidenceChars,
  maxFailureReasonChars,
  parseFailureEvent,
} from '../../../../domain/learning/failure-event.js';

const event = {
  workflowId: 'task-p-t1',
  taskId: 't1',
  attempt: 1,
  description: 'Fix add',
  failureClass: 'context_problem',
};

describe('parseFailureEvent', () => {
  it('accepts a minimal event and defaults reason and evidence to empty', () => {
    expect(parseFailureEvent(event)).toEqual({ success: true, data: { ...event, reason: '', evidence: '' } });
  });

  it('keeps the tail of long evidence and the head of a long reason, within their limits', () => {
    const evidence = `${'x'.repeat(5000)}== 1 failed in 0.1s ==`;
    const reason = `tests failed ${'y'.repeat(3000)}`;
    const parsed = parseFailureEvent({ ...event, evidence, reason });
    if (!parsed.success) throw new Error(parsed.error);
    expect(parsed.data.evidence).toHaveLength(maxFailureEvidenceChars);
    expect(parsed.data.evidence.endsWith('== 1 failed in 0.1s ==')).toBe(true);
    expect(parsed.data.reason).toHaveLength(maxFailureReasonChars);
    expect(parsed.data.reason.startsWith('tests failed')).toBe(true);
  });

  it('names the field and the expected shape when an event is invalid', () => {
    const parsed = parseFailureEvent({ ...event, attempt: 0 });
    expect(parsed.success).toBe(false);
    expect(!parsed.success && parsed.error).toMatch(
      /^failure event field attempt: .*send \{ workflowId, taskId, attempt >= 1/,
    );
  });

  it('refuses a value that is not an object', () => {
    expect(parseFailureEvent('boom').success).toBe(false);
  });
});

describe('failureEventId', () => {
  it('names one attempt of one workflow', () => {
    expect(failureEventId({ workflowId: 'task-p-t1', attempt: 2 })).toBe('task-p-t1#2');
  });
});
