// Typed failure causes (contract in causes.md). Minimal stand-in: helper `classes` owns the full file with the
// cause → class → retry-kind table; the integrator merges that over this one.

export const causeKinds = [
  'TestsFailed',
  'CollectionError',
  'MissingThirdPartyModule',
  'MissingEnvVar',
  'ConnectionRefused',
  'TestUsageError',
  'NoTestsCollected',
  'TestTimeout',
  'OutputTooLarge',
  'TestCommandNotFound',
  'SandboxDenied',
  'ResourceLimit',
  'ModelAuth',
  'ModelRateLimited',
  'ModelUnavailable',
  'ModelMalformed',
  'ModelScriptExhausted',
  'ModelConfig',
  'CoderOutOfSteps',
  'ContextMissing',
  'BudgetExhausted',
  'CapabilityMissing',
  'ReviewFinding',
  'JudgeFinding',
  'WorktreeError',
  'GitLocked',
  'HostLost',
  'PushRejected',
  'Unknown',
] as const;
export type CauseKind = (typeof causeKinds)[number];

export interface FailureCause {
  kind: CauseKind;
  /** One line a person can act on; names the fix where there is one. */
  message: string;
  /** ReviewFinding / JudgeFinding: the rule id, e.g. 'test_file_edited'. */
  rule?: string;
  /** Small, JSON-plain, never secrets. */
  details?: Record<string, string | number | boolean>;
}

export type RetryKind = 'rerun_node' | 'new_attempt' | 'reclaim' | 'wait_for_hint' | 'fail';
