import { describe, expect, it } from 'vitest';
import { probeAnswerSignal, probeStateQuery, probeWorkflow } from '../../workflows/probe.js';
import { eventually, uniqueId, useTestTemporal } from './support/temporal.js';

describe('the plumbing on a real Temporal dev server', () => {
  const t = useTestTemporal('plumbing');

  it('starts a workflow, finds it by a search attribute, changes it with a signal and reads it with a query', async () => {
    const taskId = uniqueId('probe');
    const handle = await t.client.workflow.start(probeWorkflow, {
      taskQueue: t.host.taskQueue,
      workflowId: `probe-${taskId}`,
      args: [{ taskId }],
    });

    const found = await eventually('the visibility query to find the probe', async () => {
      for await (const execution of t.client.workflow.list({ query: `TaskId = "${taskId}"` })) return execution;
      return undefined;
    });
    expect(found.workflowId).toBe(handle.workflowId);
    expect(found.searchAttributes.Phase).toEqual(['waiting']);

    expect(await handle.query(probeStateQuery)).toEqual({ phase: 'waiting' });
    await handle.signal(probeAnswerSignal, 'forty-two');
    await eventually('the signal to change state', async () =>
      (await handle.query(probeStateQuery)).phase === 'answered' ? true : undefined,
    );
    expect(await handle.query(probeStateQuery)).toEqual({ phase: 'answered', answer: 'forty-two' });
    expect(await handle.result()).toBe('forty-two');

    const answered = await eventually('the upserted Phase to be visible', async () => {
      for await (const execution of t.client.workflow.list({ query: `TaskId = "${taskId}" AND Phase = "answered"` }))
        return execution;
      return undefined;
    });
    expect(answered.status.name).toBe('COMPLETED');
  });
});
