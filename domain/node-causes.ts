// The typed cause of each node's failure, from what the node returned or threw: the result's own `cause` when the
// activity set one, else derived here from the record (results recorded before causes existed).
import { causeKindOfFailureType, isCauseKind, type FailureCause } from './failure-causes.js';
import type { CoderResult, Finding, TestRunResult } from './records.js';

/**
 * The cause of an activity failure that outlived its retries: a cause kind its ApplicationFailure type names, or the
 * row whose failureTypes column lists that type (cause-table.ts); Unknown otherwise.
 */
export function causeOfActivityFailure(input: {
  activityType: string;
  failureType?: string;
  message: string;
  nonRetryable: boolean;
}): FailureCause {
  const kind = isCauseKind(input.failureType) ? input.failureType : causeKindOfFailureType(input.failureType);
  if (kind === 'PayloadTooLarge')
    return {
      kind,
      message: `${input.activityType}'s result was over Temporal's payload limit (${input.message}): the change is too large to describe; split the task`,
    };
  if (kind) return { kind, message: input.message };
  const details: FailureCause['details'] = { activity: input.activityType, nonRetryable: input.nonRetryable };
  if (input.failureType) details.failureType = input.failureType;
  return {
    kind: 'Unknown',
    message: input.nonRetryable ? input.message : `${input.activityType} failed after its retries: ${input.message}`,
    details,
  };
}

/** Why the coder did not finish. */
export function causeOfCoderResult(
  coder: Pick<CoderResult, 'status' | 'reason' | 'changedFiles' | 'cause'>,
): FailureCause {
  if (coder.cause) return coder.cause;
  const message = coder.reason ?? `coder ended with status ${coder.status}`;
  switch (coder.status) {
    case 'max_steps':
      return { kind: 'CoderOutOfSteps', message, details: { changedFiles: coder.changedFiles.length } };
    case 'budget_exhausted':
      return { kind: 'BudgetExhausted', message };
    case 'model_error':
      return {
        kind: /scripted file .* no \w+ turn left/.test(message) ? 'ModelScriptExhausted' : 'ModelMalformed',
        message,
      };
    default:
      return { kind: 'Unknown', message };
  }
}

/** Why a test run did not pass: the activity's cause, or a code defect (or an unknown error) from the record. */
export function causeOfTestResult(test: TestRunResult): FailureCause {
  const cause = test.cause ?? fallbackTestCause(test);
  if (cause.kind !== 'TestsFailed' || cause.details?.failingModules !== undefined) return cause;
  return { ...cause, details: { ...cause.details, failingModules: countFailingModules(test) } };
}

function fallbackTestCause(test: TestRunResult): FailureCause {
  if (test.outcome === 'failed') {
    const failing = failingCaseIds(test);
    return {
      kind: 'TestsFailed',
      message: `tests failed: ${test.counts.failed} failed, ${test.counts.errors} errors (${failing.slice(0, 5).join(', ')})`,
    };
  }
  return { kind: 'Unknown', message: test.reason ?? `the test run ended with ${test.outcome}` };
}

function failingCaseIds(test: TestRunResult): string[] {
  return test.cases.filter((c) => c.outcome === 'failed' || c.outcome === 'error').map((c) => c.id);
}

/** Distinct test files with a failing case: failures spread over many of them suggest the task is too big. */
function countFailingModules(test: TestRunResult): number {
  return new Set(failingCaseIds(test).map((id) => id.split('::')[0])).size;
}

/** A review's or judge's rejection, classed by the rule of its weightiest finding (a rejected approach first). */
export function causeOfFindings(kind: 'ReviewFinding' | 'JudgeFinding', findings: readonly Finding[]): FailureCause {
  const verb = kind === 'ReviewFinding' ? 'review rejected the change' : 'judge rejected the attempt';
  return findingsCause(kind, verb, findings);
}

/**
 * A change the review's path rules refused (a test file edited, a path outside the allowed ones, a secret in a path, a
 * planted git folder, what the snapshot could not take): the test node's failure, its tests never run. The finding
 * is the review's, classed by the same row as when the review raises it.
 */
export function causeOfRefusal(findings: readonly Finding[]): FailureCause {
  return findingsCause('ReviewFinding', "tests not run: the review's path rules refused the change", findings);
}

function findingsCause(
  kind: 'ReviewFinding' | 'JudgeFinding',
  verb: string,
  findings: readonly Finding[],
): FailureCause {
  const first = findings.find((finding) => approachRules.has(finding.rule)) ?? findings[0];
  if (!first) return { kind, message: `${verb} without a finding` };
  const rules = [...new Set(findings.map((finding) => finding.rule))];
  return { kind, rule: first.rule, message: `${verb}: ${rules.join(', ')}: ${first.message}`.slice(0, 500) };
}

// Findings that reject the approach rather than a detail of the code: they decide the class when present.
const approachRules: ReadonlySet<string> = new Set([
  'test_file_edited',
  'path_not_allowed',
  'diff_too_large',
  'model_review',
  'model_judge',
]);
