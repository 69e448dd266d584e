import { describe, expect, it } from 'vitest';
import { failureClasses } from '../../../domain/failure-class.js';
import {
  causeKinds,
  causeTable,
  classifyCause,
  classTable,
  findCauseRow,
  isCauseKind,
  SPLIT_MODULES,
  type CauseKind,
  type FailureCause,
} from '../../../domain/failure-causes.js';
import type { FailureClass } from '../../../domain/failure-class.js';
import type { RetryKind } from '../../../domain/failure-causes.js';

const cause = (kind: CauseKind, extra: Partial<FailureCause> = {}): FailureCause => ({
  kind,
  message: `${kind} happened`,
  ...extra,
});

// The contract (the cause table of docs/architecture.md and domain/cause-table.ts), written out once more so a
// changed row is a deliberate change.
const expected: [CauseKind, FailureClass, RetryKind][] = [
  ['TestsFailed', 'code_defect', 'new_attempt'],
  ['CollectionError', 'code_defect', 'new_attempt'],
  ['MissingThirdPartyModule', 'environment_problem', 'fail'],
  ['MissingEnvVar', 'environment_problem', 'fail'],
  ['ConnectionRefused', 'environment_problem', 'rerun_node'],
  ['TestUsageError', 'environment_problem', 'fail'],
  ['NoTestsCollected', 'environment_problem', 'fail'],
  ['TestTimeout', 'environment_problem', 'rerun_node'],
  ['OutputTooLarge', 'environment_problem', 'fail'],
  ['TestCommandNotFound', 'environment_problem', 'fail'],
  ['SandboxDenied', 'code_defect', 'new_attempt'],
  ['ResourceLimit', 'code_defect', 'new_attempt'],
  ['TestRunUnproven', 'code_defect', 'new_attempt'],
  ['ModelAuth', 'environment_problem', 'fail'],
  ['ModelRateLimited', 'environment_problem', 'rerun_node'],
  ['ModelUnavailable', 'environment_problem', 'rerun_node'],
  ['ModelMalformed', 'model_problem', 'new_attempt'],
  ['ModelScriptExhausted', 'model_problem', 'new_attempt'],
  ['ModelConfig', 'environment_problem', 'fail'],
  ['CoderOutOfSteps', 'model_problem', 'new_attempt'],
  ['ContextMissing', 'context_problem', 'new_attempt'],
  ['BudgetExhausted', 'budget_exhausted', 'fail'],
  ['CapabilityMissing', 'missing_capability', 'fail'],
  ['WorktreeError', 'environment_problem', 'rerun_node'],
  ['GitLocked', 'environment_problem', 'rerun_node'],
  ['HostLost', 'environment_problem', 'reclaim'],
  ['PushRejected', 'environment_problem', 'fail'],
  ['InvalidTestCommand', 'environment_problem', 'fail'],
  ['InvalidTimeout', 'environment_problem', 'fail'],
  ['InvalidWorktree', 'environment_problem', 'fail'],
  ['InvalidCoderInput', 'environment_problem', 'fail'],
  ['SyntaxCheckFailed', 'environment_problem', 'rerun_node'],
  ['MalformedSkill', 'model_problem', 'new_attempt'],
  ['InvalidAgentRegistry', 'environment_problem', 'fail'],
];

describe('the cause table', () => {
  it.each(expected)('maps %s to %s / %s', (kind, failureClass, retry) => {
    expect(classifyCause(cause(kind), 'test')).toEqual({ failureClass, retry });
  });

  it('has a default row for every cause kind and only declared classes', () => {
    for (const kind of causeKinds) expect(findCauseRow({ kind }).rule).toBeUndefined();
    for (const row of causeTable) expect(failureClasses).toContain(row.failureClass);
    expect(Object.keys(classTable).sort()).toEqual([...failureClasses].sort());
  });

  it('classes review findings by rule, not by their wording', () => {
    const secret = cause('ReviewFinding', {
      rule: 'secret_in_diff',
      message: 'a secret from the environment is in the diff',
    });
    expect(classifyCause(secret, 'review')).toEqual({ failureClass: 'code_defect', retry: 'new_attempt' });
    for (const rule of ['python_syntax', 'conflict_marker', 'empty_diff']) {
      expect(classifyCause(cause('ReviewFinding', { rule }), 'review').failureClass).toBe('code_defect');
    }
    for (const rule of ['test_file_edited', 'path_not_allowed']) {
      expect(classifyCause(cause('ReviewFinding', { rule, message: 'model timeout environment' }), 'review')).toEqual({
        failureClass: 'replan',
        retry: 'new_attempt',
      });
    }
  });

  it('classes judge findings by rule: failing tests are a code defect', () => {
    for (const rule of ['tests_failed', 'acceptance_failed', 'acceptance_missing']) {
      expect(classifyCause(cause('JudgeFinding', { rule }), 'judge').failureClass).toBe('code_defect');
    }
  });

  it("reads a model's verdict as free text: a rejection is a replan, an unclear goal waits for a hint", () => {
    expect(
      classifyCause(
        cause('JudgeFinding', { rule: 'model_judge', message: 'the approach duplicates the parser' }),
        'judge',
      ),
    ).toEqual({ failureClass: 'replan', retry: 'new_attempt' });
    expect(
      classifyCause(
        cause('ReviewFinding', { rule: 'model_review', message: 'the goal is ambiguous: which cache?' }),
        'review',
      ),
    ).toEqual({
      failureClass: 'intent_ambiguity',
      retry: 'wait_for_hint',
    });
  });

  it('reads an unknown error by its words, and calls it a code defect when no word matches', () => {
    expect(classifyCause(cause('Unknown', { message: 'connect ECONNREFUSED 127.0.0.1:9' }), 'claim')).toEqual({
      failureClass: 'environment_problem',
      retry: 'rerun_node',
    });
    expect(classifyCause(cause('Unknown', { message: 'budget exhausted: 40 calls' }), 'code')).toEqual({
      failureClass: 'budget_exhausted',
      retry: 'fail',
    });
    expect(classifyCause(cause('Unknown', { message: 'something odd' }), 'code')).toEqual({
      failureClass: 'code_defect',
      retry: 'new_attempt',
    });
  });

  it('calls a task too big only on evidence', () => {
    expect(classifyCause(cause('CoderOutOfSteps', { details: { changedFiles: 3 } }), 'code')).toEqual({
      failureClass: 'split_task',
      retry: 'fail',
    });
    expect(classifyCause(cause('CoderOutOfSteps', { details: { changedFiles: 0 } }), 'code').failureClass).toBe(
      'model_problem',
    );
    expect(
      classifyCause(cause('TestsFailed', { details: { failingModules: SPLIT_MODULES } }), 'test').failureClass,
    ).toBe('split_task');
    expect(
      classifyCause(cause('TestsFailed', { details: { failingModules: SPLIT_MODULES - 1 } }), 'test').failureClass,
    ).toBe('code_defect');
    expect(classifyCause(cause('ReviewFinding', { rule: 'diff_too_large' }), 'review').failureClass).toBe('split_task');
  });

  it('knows which ApplicationFailure types name a cause', () => {
    expect(isCauseKind('GitLocked')).toBe(true);
    expect(isCauseKind('ProviderAuthFailed')).toBe(false);
    expect(isCauseKind(undefined)).toBe(false);
  });
});

describe('activity faults with no typed cause', () => {
  it('are environment problems re-run when retryable, and fail at once when not', () => {
    const retryable = cause('Unknown', {
      message: 'claimWorktree failed after its retries: EBUSY',
      details: { activity: 'claimWorktree', nonRetryable: false },
    });
    expect(classifyCause(retryable, 'claim')).toEqual({ failureClass: 'environment_problem', retry: 'rerun_node' });
    const fatal = cause('Unknown', {
      message: 'repoPath "/x" is not a git repository: pass the path of one',
      details: { activity: 'claimWorktree', nonRetryable: true },
    });
    expect(classifyCause(fatal, 'claim')).toEqual({ failureClass: 'environment_problem', retry: 'fail' });
  });
});
