import { describe, expect, it } from 'vitest';
import { readHistoryTimes, type HistoryEvent } from '../../../bench/overhead/history-times.js';

/**
 * An event at `ms` after a fixed second. Plain numbers stand for the history's Long fields (ids, seconds), which the
 * reader takes either way.
 */
const at = (ms: number, fields: Record<string, unknown>, eventId?: number) =>
  ({
    ...fields,
    ...(eventId === undefined ? {} : { eventId }),
    eventTime: { seconds: 1_800_000_000 + Math.floor(ms / 1000), nanos: Math.round((ms % 1000) * 1e6) },
  }) as unknown as HistoryEvent;

const claimMarker = {
  markerRecordedEventAttributes: {
    markerName: 'core_local_activity',
    details: {
      data: { payloads: [{ data: Buffer.from(JSON.stringify({ activity_type: 'claimWorktree', seq: 1 })) }] },
    },
  },
};

describe('readHistoryTimes', () => {
  it('times an activity from scheduled to completed, and a local one by the workflow task it ran in', () => {
    const history = [
      at(0, { workflowExecutionStartedEventAttributes: {} }),
      at(0.1, { workflowTaskScheduledEventAttributes: {} }),
      at(3, { workflowTaskStartedEventAttributes: {} }),
      at(30, { workflowTaskCompletedEventAttributes: {} }),
      at(30.1, claimMarker),
      at(30.2, { activityTaskScheduledEventAttributes: { activityType: { name: 'runCoder' } } }, 6),
      at(33, { activityTaskStartedEventAttributes: { scheduledEventId: 6 } }),
      at(230.2, { activityTaskCompletedEventAttributes: { scheduledEventId: 6 } }),
      at(230.3, { workflowTaskScheduledEventAttributes: {} }),
      at(232, { workflowTaskStartedEventAttributes: {} }),
      at(240, { workflowTaskCompletedEventAttributes: {} }),
      at(240.1, { workflowExecutionCompletedEventAttributes: {} }),
    ];

    const times = readHistoryTimes(history);

    expect(times.workflowMs).toBeCloseTo(240.1, 3);
    expect([...times.activityCalls]).toEqual([
      ['claimWorktree (local, with its workflow task)', 1],
      ['runCoder', 1],
    ]);
    expect(times.activityMs.get('runCoder')).toBeCloseTo(200, 3);
    expect(times.activityMs.get('claimWorktree (local, with its workflow task)')).toBeCloseTo(27, 3);
  });
});
