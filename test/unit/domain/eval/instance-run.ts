// An instance run as eval records it, for the report's tests: resolved or not, committed at an attempt or not.
import type { InstanceRun } from '../../../../domain/eval/records.js';

export const run = (instanceId: string, resolved: boolean, commitAttempt?: number): InstanceRun => ({
  instanceId,
  workflowId: `task-x-${instanceId}`,
  taskStatus: resolved ? 'COMPLETED' : 'FAILED',
  attempts: commitAttempt ?? 2,
  ...(commitAttempt ? { commitAttempt } : {}),
  verification: {
    resolved,
    sha: 'abc',
    checked: 'commit',
    failToPass: { total: 1, passed: resolved ? 1 : 0, notPassing: {} },
    passToPass: { total: 0, passed: 0, notPassing: {} },
  },
  modelCalls: 4,
  inputTokens: 100,
  outputTokens: 10,
  costUsd: 0.01,
  wallTimeMs: 2000,
  malformedReplies: resolved ? 0 : 1,
  ...(resolved ? {} : { failureClass: 'code_defect' }),
});
