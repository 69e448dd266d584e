// The one table of failure causes: each cause (and, for findings, its rule) with the nodes that raise it, the
// ApplicationFailure types an activity throws for it, its failure class and its retry kind. A new typed failure is a
// new row here (test/unit/domain/cause-table.test.ts scans the activities for thrown types without one).
import type { FailureClass } from './failure-class.js';
import type { TaskNode } from './node-findings.js';

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
  'WorktreeTampered',
  'UnsafeTestOutput',
  'TestRunUnproven',
  'InvalidTestCommand',
  'InvalidTimeout',
  'SandboxConfigError',
  'SecretInGoal',
  'ClearInputRefused',
  'InvalidCoderInput',
  'InvalidAgentRegistry',
  'ModelAuth',
  'ModelRateLimited',
  'ModelUnavailable',
  'ModelMalformed',
  'ModelScriptExhausted',
  'ModelConfig',
  'ModelServerDown',
  'ModelServerError',
  'ContextOverflow',
  'CoderOutOfSteps',
  'CoderStuck',
  'ContextMissing',
  'BudgetExhausted',
  'CapabilityMissing',
  'ReviewFinding',
  'JudgeFinding',
  'SyntaxCheckFailed',
  'PythonMissing',
  'InvalidRepo',
  'EmptyRepo',
  'UnknownBaseRef',
  'InvalidTaskId',
  'InvalidWorktree',
  'InvalidAttempt',
  'InvalidArtifactName',
  'BranchMismatch',
  'NothingToCommit',
  'WorktreeError',
  'GitLocked',
  'HostLost',
  'PushRejected',
  'MalformedSkill',
  'VerificationSetupFailed',
  'EnvironmentSetupFailed',
  'PayloadTooLarge',
  'MergeConflict',
  'FailsOnMergedTree',
  'LandingRefused',
  'RejectedByReviewer',
  'ApprovalTimedOut',
  'Unknown',
] as const;
export type CauseKind = (typeof causeKinds)[number];

export type RetryKind = 'rerun_node' | 'new_attempt' | 'reclaim' | 'wait_for_hint' | 'fail';

/** Where a cause arises: a node of the task graph, or the learning, eval and landing workflows' own activities. */
export type RaisingNode = TaskNode | 'learning' | 'eval' | 'land';

export interface CauseRow {
  kind: CauseKind;
  /** For findings: the rule this row classes; a row without a rule is the kind's default. */
  rule?: string;
  /** The nodes whose work raises it, the usual one first. */
  nodes: readonly RaisingNode[];
  /** ApplicationFailure types (or Error names) an activity throws for it; none: the node returns it in its result. */
  failureTypes?: readonly string[];
  failureClass: FailureClass;
  retry: RetryKind;
  /** Free text (a model's verdict, an unknown error): a matching word rule overrides the class. */
  readWords?: boolean;
}

type Nodes = RaisingNode | readonly RaisingNode[];
const row = (
  kind: CauseKind,
  nodes: Nodes,
  failureClass: FailureClass,
  retry: RetryKind,
  extra: Partial<Omit<CauseRow, 'kind' | 'nodes' | 'failureClass' | 'retry'>> = {},
): CauseRow => ({ kind, nodes: typeof nodes === 'string' ? [nodes] : nodes, failureClass, retry, ...extra });
/** A row whose kind is also the type of the ApplicationFailure (or the name of the Error) an activity throws. */
const thrown = (kind: CauseKind, nodes: Nodes, failureClass: FailureClass, retry: RetryKind): CauseRow =>
  row(kind, nodes, failureClass, retry, { failureTypes: [kind] });

const models: readonly RaisingNode[] = ['code', 'review', 'judge'];
const hostNodes: readonly RaisingNode[] = ['code', 'test', 'review', 'judge', 'commit'];
/**
 * The review's path rules and what a snapshot could not take: checked by the test node before the tests run, which
 * fails with the finding (runs started since the patch decisions-in-workflow); the review checks them again.
 */
const refusedAtTest: readonly RaisingNode[] = ['test', 'review'];

/** The table: cause (and rule) → nodes → class → retry kind. */
export const causeTable: readonly CauseRow[] = [
  row('TestsFailed', 'test', 'code_defect', 'new_attempt'),
  row('CollectionError', 'test', 'code_defect', 'new_attempt'),
  row('MissingThirdPartyModule', 'test', 'environment_problem', 'fail'),
  row('MissingEnvVar', 'test', 'environment_problem', 'fail'),
  row('ConnectionRefused', 'test', 'environment_problem', 'rerun_node'),
  row('TestUsageError', 'test', 'environment_problem', 'fail'),
  row('NoTestsCollected', 'test', 'environment_problem', 'fail'),
  row('TestTimeout', 'test', 'environment_problem', 'rerun_node'),
  row('OutputTooLarge', 'test', 'environment_problem', 'fail'),
  row('TestCommandNotFound', 'test', 'environment_problem', 'fail'),
  row('SandboxDenied', 'test', 'code_defect', 'new_attempt'),
  row('ResourceLimit', 'test', 'code_defect', 'new_attempt'),
  // Code the attempt ran rewrote the worktree's .git, or left a link or special file where its report belongs: the
  // change is never committed, and the next attempt is told why.
  thrown('WorktreeTampered', ['review', 'commit'], 'code_defect', 'new_attempt'),
  row('UnsafeTestOutput', 'test', 'code_defect', 'new_attempt'),
  // pytest exited 0 with no report, or a report of no case: code the tests ran ended the run or removed its proof.
  row('TestRunUnproven', 'test', 'code_defect', 'new_attempt'),
  // The task's test command, its timeout or its sandbox settings cannot work: the task must change, not the code.
  thrown('InvalidTestCommand', 'test', 'environment_problem', 'fail'),
  thrown('InvalidTimeout', 'test', 'environment_problem', 'fail'),
  thrown('SandboxConfigError', 'test', 'environment_problem', 'fail'),
  // A goal or hint holding a secret's value: nothing a retry can change (the worker checks; see secret-in-task.ts).
  thrown('SecretInGoal', 'code', 'environment_problem', 'fail'),
  // A keyed worker was handed a task started in clear (activities/clear-start-input.ts): a client's setting, not code.
  thrown('ClearInputRefused', 'claim', 'environment_problem', 'fail'),
  thrown('InvalidCoderInput', 'code', 'environment_problem', 'fail'),
  // agents/registry.json or a prompt it names is broken: a setting of the worker, read at claim and by each model role.
  thrown('InvalidAgentRegistry', ['claim', ...models], 'environment_problem', 'fail'),
  row('ModelAuth', models, 'environment_problem', 'fail', { failureTypes: ['ProviderAuthFailed'] }),
  row('ModelRateLimited', models, 'environment_problem', 'rerun_node', { failureTypes: ['ProviderRateLimited'] }),
  row('ModelUnavailable', models, 'environment_problem', 'rerun_node', {
    failureTypes: ['ProviderTimeout', 'ProviderUnreachable', 'ProviderUnavailable'],
  }),
  // A reply the provider could not read; the coder returns it as its result, other callers let it escape.
  row('ModelMalformed', models, 'model_problem', 'new_attempt', { failureTypes: ['ModelProblem'] }),
  row('ModelScriptExhausted', 'code', 'model_problem', 'new_attempt'),
  row('ModelConfig', models, 'environment_problem', 'fail', {
    failureTypes: ['ProviderRequestRejected', 'InvalidModelSpec', 'InvalidScript'],
  }),
  // The coder already waited out the server for its bound (minutes): re-running the node would wait as long again.
  thrown('ModelServerDown', 'code', 'environment_problem', 'fail'),
  // The server is up and answers every try with an error status, by the status's own rule (domain/model-wait.ts).
  thrown('ModelServerError', 'code', 'environment_problem', 'fail'),
  // The prompt was fitted to the window and still did not fit: no attempt changes that, a setting does (the message
  // names the window, the prompt size and the setting), so it fails at once rather than as a context_problem.
  thrown('ContextOverflow', models, 'environment_problem', 'fail'),
  row('CoderOutOfSteps', 'code', 'model_problem', 'new_attempt'),
  // The same call repeated, steps without a change or a test run, or cut-off calls again and again: the model is stuck.
  row('CoderStuck', 'code', 'model_problem', 'new_attempt'),
  row('ContextMissing', 'code', 'context_problem', 'new_attempt'),
  row('BudgetExhausted', models, 'budget_exhausted', 'fail'),
  row('CapabilityMissing', 'code', 'missing_capability', 'fail'),
  row('ReviewFinding', 'review', 'replan', 'new_attempt', { readWords: true }),
  row('ReviewFinding', 'review', 'code_defect', 'new_attempt', { rule: 'python_syntax' }),
  row('ReviewFinding', 'review', 'code_defect', 'new_attempt', { rule: 'conflict_marker' }),
  row('ReviewFinding', 'review', 'code_defect', 'new_attempt', { rule: 'secret_in_diff' }),
  row('ReviewFinding', 'review', 'code_defect', 'new_attempt', { rule: 'empty_diff' }),
  row('ReviewFinding', 'review', 'code_defect', 'new_attempt', { rule: 'link_out_of_repo' }),
  // A path holding a secret (or its base64/hex form), a planted .git, a .gitattributes naming a driver: never committed.
  row('ReviewFinding', refusedAtTest, 'code_defect', 'new_attempt', { rule: 'secret_in_path' }),
  row('ReviewFinding', refusedAtTest, 'code_defect', 'new_attempt', { rule: 'git_folder_planted' }),
  row('ReviewFinding', 'review', 'code_defect', 'new_attempt', { rule: 'git_attributes_driver' }),
  row('ReviewFinding', refusedAtTest, 'replan', 'new_attempt', { rule: 'test_file_edited' }),
  row('ReviewFinding', refusedAtTest, 'replan', 'new_attempt', { rule: 'path_not_allowed' }),
  row('ReviewFinding', 'review', 'split_task', 'fail', { rule: 'diff_too_large' }),
  // What a snapshot of the worktree could not take (activities/git/snapshot-tree.ts): the change made it, so the next
  // attempt is told; too many files or bytes is the task's size.
  row('ReviewFinding', refusedAtTest, 'code_defect', 'new_attempt', { rule: 'nested_git' }),
  row('ReviewFinding', refusedAtTest, 'code_defect', 'new_attempt', { rule: 'special_file' }),
  row('ReviewFinding', refusedAtTest, 'code_defect', 'new_attempt', { rule: 'file_too_large' }),
  row('ReviewFinding', refusedAtTest, 'split_task', 'fail', { rule: 'change_too_large' }),
  row('ReviewFinding', 'review', 'model_problem', 'new_attempt', { rule: 'model_verdict_invalid' }),
  row('JudgeFinding', 'judge', 'replan', 'new_attempt', { readWords: true }),
  row('JudgeFinding', 'judge', 'code_defect', 'new_attempt', { rule: 'tests_failed' }),
  row('JudgeFinding', 'judge', 'code_defect', 'new_attempt', { rule: 'acceptance_failed' }),
  row('JudgeFinding', 'judge', 'code_defect', 'new_attempt', { rule: 'acceptance_missing' }),
  row('JudgeFinding', 'judge', 'code_defect', 'new_attempt', { rule: 'review_failed' }),
  row('JudgeFinding', 'judge', 'model_problem', 'new_attempt', { rule: 'model_verdict_invalid' }),
  // The syntax checker's own process failed (not the change's syntax): run the review again.
  thrown('SyntaxCheckFailed', 'review', 'environment_problem', 'rerun_node'),
  thrown('PythonMissing', 'review', 'environment_problem', 'fail'),
  // The task names a repository, base or id that cannot work: fix the task.
  thrown('InvalidRepo', 'claim', 'environment_problem', 'fail'),
  thrown('EmptyRepo', 'claim', 'environment_problem', 'fail'),
  thrown('UnknownBaseRef', 'claim', 'environment_problem', 'fail'),
  thrown('InvalidTaskId', 'claim', 'environment_problem', 'fail'),
  // An activity was handed a worktree, attempt or name that is not the claim's: a fault of the loop, never the change.
  thrown('InvalidWorktree', ['test', 'review', 'commit'], 'environment_problem', 'fail'),
  thrown('InvalidAttempt', ['claim', 'commit'], 'environment_problem', 'fail'),
  thrown('InvalidArtifactName', hostNodes, 'environment_problem', 'fail'),
  thrown('BranchMismatch', 'commit', 'environment_problem', 'fail'),
  thrown('NothingToCommit', 'commit', 'environment_problem', 'fail'),
  // A git command that failed outside the cases above (GitError: git's own words) is a worktree error too.
  row('WorktreeError', ['claim', 'review', 'commit'], 'environment_problem', 'rerun_node', {
    failureTypes: ['WorktreeError', 'GitError'],
  }),
  thrown('GitLocked', ['claim', 'commit'], 'environment_problem', 'rerun_node'),
  // Raised by Temporal itself (a schedule-to-start timeout of a host-bound activity), never thrown by an activity.
  row('HostLost', hostNodes, 'environment_problem', 'reclaim'),
  thrown('PushRejected', 'commit', 'environment_problem', 'fail'),
  // The skill writer's reply was no skill: the learning workflow records the error and keeps the pattern.
  thrown('MalformedSkill', 'learning', 'model_problem', 'new_attempt'),
  // An eval instance's repository could not be prepared: the eval arm records the instance as not run.
  thrown('VerificationSetupFailed', 'eval', 'environment_problem', 'fail'),
  // The repository's environment could not be built (a set-up command failed, timed out or went over a limit; or it
  // cannot be built here): the task's set-up or the worker must change, not the code; never the coder's fault.
  thrown('EnvironmentSetupFailed', ['claim', 'eval'], 'environment_problem', 'fail'),
  // A result over Temporal's payload limit (the SDK fails the activity with type PayloadsTooLarge): results are bounded
  // by design (domain/payload-bounds.ts), so one that is not came from a change too large to describe; running the node
  // again gives the same result, so it is never an environment problem nor retried.
  row('PayloadTooLarge', ['claim', ...hostNodes], 'split_task', 'fail', { failureTypes: ['PayloadsTooLarge'] }),
  // The landing queue (workflows/land): the change does not fit the target as it is now, so the coder makes it again
  // on the target's new head with the conflict or the failing tests as evidence (docs/review-and-land.md).
  row('MergeConflict', 'land', 'merge_conflict', 'new_attempt'),
  row('FailsOnMergedTree', 'land', 'merge_conflict', 'new_attempt'),
  // The target cannot take the change and no attempt changes that: a dirty checkout, a protected branch, no branch.
  thrown('LandingRefused', 'land', 'environment_problem', 'fail'),
  // A person's answer on a task with `approval: required` (domain/approval.ts): the person is its last judge. The
  // branch keeps the change; nothing a retry of the coder could change.
  row('RejectedByReviewer', 'judge', 'rejected_by_reviewer', 'fail'),
  row('ApprovalTimedOut', 'judge', 'approval_timed_out', 'fail'),
  row('Unknown', ['claim', ...hostNodes], 'code_defect', 'new_attempt', { readWords: true }),
];

/** True for a kind the table knows. */
export function isCauseKind(value: string | undefined): value is CauseKind {
  return (causeKinds as readonly string[]).includes(value ?? '');
}

/** The cause an ApplicationFailure type (or a thrown Error's name) names, from the table's failureTypes column. */
export function causeKindOfFailureType(failureType: string | undefined): CauseKind | undefined {
  if (failureType === undefined) return undefined;
  return causeTable.find((candidate) => candidate.failureTypes?.includes(failureType))?.kind;
}
