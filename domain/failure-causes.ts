// Typed failure causes and the one table that maps each cause (and, for findings, its rule) to a failure class
// and a retry kind. Adding a cause or a class is one row here; word rules apply only to free text.
import { classifyFailure, type FailureClass } from './failure-class.js';
import type { TaskNode } from './records.js';

export const causeKinds = [
  // test node
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
  'WorktreeTampered',
  'UnsafeTestOutput',
  // coder input
  'SecretInGoal',
  // models
  'ModelAuth',
  'ModelRateLimited',
  'ModelUnavailable',
  'ModelMalformed',
  'ModelScriptExhausted',
  'ModelConfig',
  'ModelServerDown',
  'ContextOverflow',
  // coder
  'CoderOutOfSteps',
  'CoderStuck',
  'ContextMissing',
  'BudgetExhausted',
  'CapabilityMissing',
  // review / judge
  'ReviewFinding',
  'JudgeFinding',
  // infrastructure
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

export interface CauseRow {
  kind: CauseKind;
  /** For findings: the rule this row classes; a row without a rule is the kind's default. */
  rule?: string;
  failureClass: FailureClass;
  retry: RetryKind;
  /** Free text (a model's verdict, an unknown error): a matching word rule overrides the class. */
  readWords?: boolean;
}

const row = (
  kind: CauseKind,
  failureClass: FailureClass,
  retry: RetryKind,
  extra: Partial<CauseRow> = {},
): CauseRow => ({ kind, failureClass, retry, ...extra });

/** The table: cause (and rule) → class → retry kind. */
export const causeTable: readonly CauseRow[] = [
  row('TestsFailed', 'code_defect', 'new_attempt'),
  row('CollectionError', 'code_defect', 'new_attempt'),
  row('MissingThirdPartyModule', 'environment_problem', 'fail'),
  row('MissingEnvVar', 'environment_problem', 'fail'),
  row('ConnectionRefused', 'environment_problem', 'rerun_node'),
  row('TestUsageError', 'environment_problem', 'fail'),
  row('NoTestsCollected', 'environment_problem', 'fail'),
  row('TestTimeout', 'environment_problem', 'rerun_node'),
  row('OutputTooLarge', 'environment_problem', 'fail'),
  row('TestCommandNotFound', 'environment_problem', 'fail'),
  row('SandboxDenied', 'code_defect', 'new_attempt'),
  row('ResourceLimit', 'code_defect', 'new_attempt'),
  // Code the attempt ran rewrote the worktree's .git, or left a link or special file where its report belongs: the
  // change is never committed, and the next attempt is told why.
  row('WorktreeTampered', 'code_defect', 'new_attempt'),
  row('UnsafeTestOutput', 'code_defect', 'new_attempt'),
  // A goal or hint holding a secret's value: nothing a retry can change (the worker checks; see secret-in-task.ts).
  row('SecretInGoal', 'environment_problem', 'fail'),
  row('ModelAuth', 'environment_problem', 'fail'),
  row('ModelRateLimited', 'environment_problem', 'rerun_node'),
  row('ModelUnavailable', 'environment_problem', 'rerun_node'),
  row('ModelMalformed', 'model_problem', 'new_attempt'),
  row('ModelScriptExhausted', 'model_problem', 'new_attempt'),
  row('ModelConfig', 'environment_problem', 'fail'),
  // The coder already waited out the server for its bound (minutes): re-running the node would wait as long again.
  row('ModelServerDown', 'environment_problem', 'fail'),
  // The prompt was fitted to the window and still did not fit: no attempt changes that, a setting does (the message
  // names the window, the prompt size and the setting), so it fails at once rather than as a context_problem.
  row('ContextOverflow', 'environment_problem', 'fail'),
  row('CoderOutOfSteps', 'model_problem', 'new_attempt'),
  // The same call repeated, steps without a change or a test run, or cut-off calls again and again: the model is stuck.
  row('CoderStuck', 'model_problem', 'new_attempt'),
  row('ContextMissing', 'context_problem', 'new_attempt'),
  row('BudgetExhausted', 'budget_exhausted', 'fail'),
  row('CapabilityMissing', 'missing_capability', 'fail'),
  row('ReviewFinding', 'replan', 'new_attempt', { readWords: true }),
  row('ReviewFinding', 'code_defect', 'new_attempt', { rule: 'python_syntax' }),
  row('ReviewFinding', 'code_defect', 'new_attempt', { rule: 'conflict_marker' }),
  row('ReviewFinding', 'code_defect', 'new_attempt', { rule: 'secret_in_diff' }),
  row('ReviewFinding', 'code_defect', 'new_attempt', { rule: 'empty_diff' }),
  row('ReviewFinding', 'code_defect', 'new_attempt', { rule: 'link_out_of_repo' }),
  row('ReviewFinding', 'replan', 'new_attempt', { rule: 'test_file_edited' }),
  row('ReviewFinding', 'replan', 'new_attempt', { rule: 'path_not_allowed' }),
  row('ReviewFinding', 'split_task', 'fail', { rule: 'diff_too_large' }),
  row('ReviewFinding', 'model_problem', 'new_attempt', { rule: 'model_verdict_invalid' }),
  row('JudgeFinding', 'replan', 'new_attempt', { readWords: true }),
  row('JudgeFinding', 'code_defect', 'new_attempt', { rule: 'tests_failed' }),
  row('JudgeFinding', 'code_defect', 'new_attempt', { rule: 'acceptance_failed' }),
  row('JudgeFinding', 'code_defect', 'new_attempt', { rule: 'acceptance_missing' }),
  row('JudgeFinding', 'code_defect', 'new_attempt', { rule: 'review_failed' }),
  row('JudgeFinding', 'model_problem', 'new_attempt', { rule: 'model_verdict_invalid' }),
  row('WorktreeError', 'environment_problem', 'rerun_node'),
  row('GitLocked', 'environment_problem', 'rerun_node'),
  row('HostLost', 'environment_problem', 'reclaim'),
  row('PushRejected', 'environment_problem', 'fail'),
  row('Unknown', 'code_defect', 'new_attempt', { readWords: true }),
];

/** Each class: what it calls for when free text chose it (word rules name a class, not a retry kind), and its words. */
export const classTable: Record<FailureClass, { retry: RetryKind; description: string }> = {
  code_defect: { retry: 'new_attempt', description: 'Code defect' },
  budget_exhausted: { retry: 'fail', description: 'Budget exhausted' },
  missing_capability: { retry: 'fail', description: 'Missing capability' },
  context_problem: { retry: 'new_attempt', description: 'Context problem' },
  environment_problem: { retry: 'rerun_node', description: 'Environment problem' },
  model_problem: { retry: 'new_attempt', description: 'Model problem' },
  intent_ambiguity: { retry: 'wait_for_hint', description: 'Ambiguous goal' },
  replan: { retry: 'new_attempt', description: 'Plan rejected' },
  split_task: { retry: 'fail', description: 'Task too large' },
};

/** Evidence that the task is too big: failures in this many test modules, or more. */
export const SPLIT_MODULES = 5;

export interface ClassifiedCause {
  failureClass: FailureClass;
  retry: RetryKind;
}

/** The row for a cause: its rule's row when one exists, else the kind's default row. */
export function findCauseRow(cause: Pick<FailureCause, 'kind' | 'rule'>): CauseRow {
  const rows = causeTable.filter((candidate) => candidate.kind === cause.kind);
  const found =
    rows.find((candidate) => candidate.rule !== undefined && candidate.rule === cause.rule) ??
    rows.find((candidate) => candidate.rule === undefined);
  if (!found) throw new Error(`no row for cause kind ${cause.kind}`);
  return found;
}

/** Classes a cause by its row; free-text rows read words; evidence of a too-big task makes it split_task. */
export function classifyCause(cause: FailureCause, node: TaskNode): ClassifiedCause {
  if (splitEvidence(cause)) return { failureClass: 'split_task', retry: classTable.split_task.retry };
  const found = findCauseRow(cause);
  if (!found.readWords) return { failureClass: found.failureClass, retry: found.retry };
  if (cause.kind === 'Unknown' && cause.details?.activity !== undefined) return classifyActivityFault(cause, node);
  const failureClass = classifyFailure({ node, reason: cause.message, fallback: found.failureClass });
  return { failureClass, retry: failureClass === found.failureClass ? found.retry : classTable[failureClass].retry };
}

/** An activity's untyped fault lies outside the change: an environment problem unless its words say otherwise; a non-retryable one fails. */
function classifyActivityFault(cause: FailureCause, node: TaskNode): ClassifiedCause {
  const failureClass = classifyFailure({ node, reason: cause.message, fallback: 'environment_problem' });
  return { failureClass, retry: cause.details?.nonRetryable === true ? 'fail' : classTable[failureClass].retry };
}

/** The coder ran out of steps having changed files, or tests fail across many modules: the task is too big. */
function splitEvidence(cause: FailureCause): boolean {
  const details = cause.details ?? {};
  if (cause.kind === 'CoderOutOfSteps') return typeof details.changedFiles === 'number' && details.changedFiles > 0;
  if (cause.kind === 'TestsFailed')
    return typeof details.failingModules === 'number' && details.failingModules >= SPLIT_MODULES;
  return false;
}

/** True for a kind the table knows (an ApplicationFailure type may name one). */
export function isCauseKind(value: string | undefined): value is CauseKind {
  return (causeKinds as readonly string[]).includes(value ?? '');
}
