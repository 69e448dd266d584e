// The rows of `taskloop eval status --json`: the workflow's status under `executionStatus` (with `status`, its 0.1
// name, beside it for one release) and null, not a missing key, for what an arm no worker answered for cannot say.
import { describe, expect, it } from 'vitest';
import { toEvalStatusRow } from '../../../../client/eval/status.js';
import type { ArmResult } from '../../../../domain/eval/records.js';

describe('an eval status row', () => {
  it('of an arm that answered: its label and progress', () => {
    const state = {
      arm: { label: 'oracle champion learning=on' },
      total: 3,
      runs: [{ verification: { resolved: true } }, { verification: { resolved: false } }],
    } as unknown as ArmResult;
    expect(toEvalStatusRow('eval-tiny-1-a1', 'RUNNING', state)).toEqual({
      workflowId: 'eval-tiny-1-a1',
      executionStatus: 'RUNNING',
      status: 'RUNNING',
      arm: 'oracle champion learning=on',
      done: 2,
      total: 3,
      resolved: 1,
    });
  });

  it('of an arm no worker answered for: every key, null where unknown', () => {
    expect(JSON.parse(JSON.stringify(toEvalStatusRow('eval-tiny-1-a2', 'RUNNING')))).toEqual({
      workflowId: 'eval-tiny-1-a2',
      executionStatus: 'RUNNING',
      status: 'RUNNING',
      arm: null,
      done: null,
      total: null,
      resolved: null,
    });
  });
});
