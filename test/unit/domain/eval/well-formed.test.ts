// The eval report's well-formed rate counts the coder's replies that called an offered tool (issue 52: it read 78.9 %
// where 10 % of the replies called one, because a reply with no call at all counted as well formed).
import { describe, expect, it } from 'vitest';
import { instanceRunOf, type InstanceRun } from '../../../../domain/eval/records.js';
import { summarizeArm } from '../../../../domain/eval/report.js';
import type { AttemptRecord, TaskOutcome } from '../../../../domain/task-state.js';
import { emptyTelemetry } from '../../../../domain/telemetry.js';

const verification = {
  resolved: false,
  sha: 'abc',
  checked: 'commit' as const,
  failToPass: { total: 1, passed: 0, notPassing: {} },
  passToPass: { total: 0, passed: 0, notPassing: {} },
};

/** A failed task whose one attempt's coder sent `requests` replies, `offered` of them calling an offered tool. */
function outcome(requests: number, offered: number | undefined): TaskOutcome {
  const telemetry = {
    ...emptyTelemetry(),
    modelRequests: requests,
    ...(offered === undefined ? {} : { offeredToolReplies: offered }),
  };
  const attempt = {
    attempt: 1,
    status: 'FAILED',
    coder: { status: 'max_steps', summary: '', changedFiles: [], telemetry, turnsConsumed: requests },
  } as unknown as AttemptRecord;
  return {
    workflowId: 'w',
    taskId: 't',
    project: 'p',
    status: 'FAILED',
    attempts: [attempt],
    telemetry: {} as TaskOutcome['telemetry'],
    turnsConsumed: requests,
  };
}

const arm = { id: 'a1', label: 'local', model: 'local:qwen2.5-coder-0.5b', learning: false };

describe('the well-formed rate', () => {
  it('is the share of coder replies that called an offered tool', () => {
    const runs: InstanceRun[] = [
      instanceRunOf('i1', outcome(10, 1), verification),
      instanceRunOf('i2', outcome(10, 1), verification),
    ];
    expect(runs[0]).toMatchObject({ coderReplies: 10, wellFormedReplies: 1 });
    // The old reading: 20 calls, no refused call, no model_problem class: 100 %.
    expect(summarizeArm(arm, runs).wellFormedRate).toBeCloseTo(0.1);
  });

  it('falls back to the old reading for runs recorded before it was counted', () => {
    const runs = [instanceRunOf('i1', outcome(10, undefined), verification)];
    expect(runs[0]?.coderReplies).toBeUndefined();
    expect(summarizeArm(arm, runs).wellFormedRate).toBe(1);
  });

  it('counts the replies of every candidate an attempt drew, the ones set aside too', () => {
    const sampled = outcome(4, 4);
    const [attempt] = sampled.attempts;
    const lost = outcome(6, 1).attempts[0]!.coder!;
    attempt!.candidates = [
      {
        candidate: 1,
        startedAt: '2026-12-06T00:00:00Z',
        endedAt: '2026-12-06T00:01:00Z',
        coder: lost,
        failure: { node: 'test', failureClass: 'code_defect', reason: 'tests failed' },
      },
    ];
    expect(instanceRunOf('i1', sampled, verification)).toMatchObject({
      coderReplies: 10,
      wellFormedReplies: 5,
      modelCalls: 10,
    });
  });
});
