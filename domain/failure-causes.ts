// Typed failure causes, classed by the one table (cause-table.ts) that maps each cause (and, for findings, its rule)
// to a failure class and a retry kind; word rules apply only to free text.
import { causeTable, type CauseKind, type CauseRow, type RetryKind } from './cause-table.js';
import { classifyFailure, type FailureClass } from './failure-class.js';
import type { TaskNode } from './node-findings.js';

export {
  causeKindOfFailureType,
  causeKinds,
  causeTable,
  isCauseKind,
  type CauseKind,
  type CauseRow,
  type RaisingNode,
  type RetryKind,
} from './cause-table.js';

export interface FailureCause {
  kind: CauseKind;
  /** One line a person can act on; names the fix where there is one. */
  message: string;
  /** ReviewFinding / JudgeFinding: the rule id, e.g. 'test_file_edited'. */
  rule?: string;
  /** Small, JSON-plain, never secrets. */
  details?: Record<string, string | number | boolean>;
}

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
  merge_conflict: { retry: 'new_attempt', description: 'Does not fit the target branch' },
  rejected_by_reviewer: { retry: 'fail', description: 'Rejected by a reviewer' },
  approval_timed_out: { retry: 'fail', description: 'No approval in time' },
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
