// The inputs and results of the task workflow's activities: what travels through history, so kept small.
import type { Capability } from '../domain/capabilities.js';
import type { Adaptation, HistoryEntry } from '../domain/learning/adaptations.js';
import type {
  AttemptSummary,
  ChangeSnapshot,
  CommitResult,
  JudgeResult,
  ReviewResult,
  TestRunResult,
} from '../domain/records.js';
import type { ModelOptions } from '../domain/model-options.js';
import type { CoderAllowance } from './coder/run-coder.js';
import type { VerdictModel } from './models/model-verdicts.js';
import type { TaskSandboxFields } from './sandbox/index.js';
import type { EnvironmentSpec } from '../domain/environment.js';
import type { EnvironmentRef } from './environments/index.js';
import type { PathPolicy, TestEnvironment } from './tests/index.js';
import type { OfferedSkill } from './learning/load-skills.js';

export interface AttemptRef {
  workflowId: string;
  attempt: number;
  /** The attempt's candidate when the task draws samples (domain/samples.ts); absent: the first. */
  candidate?: number;
}

export interface ClaimInput extends AttemptRef {
  /** The coder version the task pins, if any. */
  coderVersion?: string;
  taskId: string;
  repoPath: string;
  baseRef: string;
  /** A project whose history of similar tasks the claim reads too (it carries what a bookkeeping call would). */
  historyOf?: string;
  /** The task's goal: the skills `historyOf` learned that match it are read too, for the coder. */
  goal?: string;
}

export interface Claim {
  /** The coder version the task will use and its capabilities, for the workflow's capability check. */
  coderAgent?: { version: string; capabilities: Capability[] };
  worktreePath: string;
  branch: string;
  baseSha: string;
  hostId: string;
  hostQueue: string;
  reused: boolean;
  /** The project's history of similar tasks, when `historyOf` was given and it could be read. */
  history?: HistoryEntry[];
  /**
   * The skills the project learned that match the goal (at most 5, a few lines each), read with the history: the
   * workflow hands them to the attempt's coder. Absent when the claim read none (the coder then reads them itself).
   */
  skills?: OfferedSkill[];
  /** Why the history could not be read (the attempt adapts from the task alone). */
  historyError?: string;
  /** The attempt's environment: set by the workflow from the environment step (never by the claim itself). */
  environment?: EnvironmentRef;
}

export interface CoderInput extends AttemptRef {
  worktreePath: string;
  goal: string;
  modelSpec: string;
  maxSteps: number;
  startTurn: number;
  previousAttempts: AttemptSummary[];
  hint?: string;
  secretEnvNames: string[];
  /** What the task's budget still allows; absent means no limit from the workflow. */
  allowance?: CoderAllowance;
  /** A coder version to use instead of the registry's champion. */
  agentVersion?: string;
  /** The task's `models.coder` settings: context window, wait for an unreachable server. */
  modelOptions?: ModelOptions;
  /** The project, whose learned skills are offered when they match the goal. */
  project?: string;
  /** The skills the attempt's claim read for this coder (Claim.skills); absent: the coder reads them itself. */
  skills?: OfferedSkill[];
  /** What this attempt adapts (chosen by the workflow), shown to the coder with the reasons. */
  adaptations?: Adaptation[];
  /** The task's tests, for the coder's run_tests tool (absent: run_tests is not available). */
  tests?: {
    command: string[];
    testEnv: Record<string, string>;
    timeoutMs: number;
    maxRuns?: number;
    /** The attempt's environment, when the task declares one. */
    environment?: TestEnvironment;
  };
  /** The task's allowTestEdits: when false, a coached coder's edits of test files are refused at the tool. */
  allowTestEdits?: boolean;
  /** The task's sandbox fields (mode, network, limits): the coder's test runs are isolated like the test node's. */
  sandbox?: TaskSandboxFields;
  /** A review round after a person asked for changes: their words, and the change they read (base..sha). */
  reviewRequest?: ReviewRequest;
}

/** What the coder of a later review round is told: the reviewer's words and the change under review. */
export interface ReviewRequest {
  round: number;
  comment: string;
  author: string;
  /** The change under review: its commit (the worktree's start) and the task's base before the first round. */
  sha: string;
  baseSha?: string;
}

export interface TestInput extends AttemptRef {
  worktreePath: string;
  command: string[];
  testEnv: Record<string, string>;
  timeoutMs: number;
  secretEnvNames: string[];
  /** Most per-test results returned (failing ones first), to keep history small. */
  maxCases?: number;
  /** The task's sandbox fields (mode, network, limits) over the worker's defaults. */
  sandbox?: TaskSandboxFields;
  /** The review's path rules, checked before the tests run: a change they refuse never executes (`refused`). */
  pathPolicy?: PathPolicy;
  /** The attempt's environment (prepareEnvironment's reference), when the task declares one. */
  environment?: TestEnvironment;
}

/** The environment step's input: the task's repository, the claim's base commit and the task's `environment`. */
export interface PrepareEnvironmentInput extends AttemptRef {
  repo: string;
  baseSha: string;
  environment: EnvironmentSpec;
  /** The task's sandbox fields: set-up runs under the task's limits, with the network added. */
  sandbox?: TaskSandboxFields;
  secretEnvNames: string[];
}

export interface CommitInput extends AttemptRef {
  worktreePath: string;
  branch: string;
  message: string;
  /** Histories recorded before snapshots: the review staged the worktree. Read as "take the change now". */
  staged?: boolean;
  /** The tree the review read (ReviewResult.treeSha): committed as it is. Absent: the change is taken now. */
  treeSha?: string;
  secretEnvNames?: string[];
  /** When set, the committed worktree is removed too (its repository), so the attempt needs no removal call. */
  removeWorktree?: { repoPath: string };
  /** A later review round: `branch` moves forward from this commit (the change the reviewer read) to the new one. */
  advanceFrom?: string;
}

/** `worktreeRemoved`: the activity removed the worktree (only asked with CommitInput.removeWorktree). */
export type CommitAndRemoveResult = CommitResult & { worktreeRemoved?: boolean };

export interface ReviewInput extends AttemptRef {
  worktreePath: string;
  baseSha: string;
  allowedPaths: string[];
  allowTestEdits: boolean;
  secretEnvNames: string[];
  /** Histories recorded before snapshots: the test node staged the change. Read as "take the change now". */
  staged?: boolean;
  /** The change the test node took (TestRunResult.snapshot): the review reads that tree by id. */
  snapshot?: ChangeSnapshot;
  /** When set, the reviewer model's verdict on the diff is merged into the policy checks. */
  model?: VerdictModelChoice;
  goal?: string;
}

/** A reviewer or judge model for one call: its spec, a pinned agent version, turns earlier attempts used. */
export type VerdictModelChoice = Omit<VerdictModel, 'cwd'>;

/**
 * The judge node's input in runs started before the patch decisions-in-workflow: what it verifies, and the judge
 * model's choice when the task names one (the activity ran the rules too).
 */
export interface JudgeInput extends AttemptRef {
  tests: TestRunResult;
  review: ReviewResult;
  /** The task's acceptance tests, which must pass (and exist). */
  acceptanceTests: string[];
  goal: string;
  /** The diff artifact of the reviewed tree (the review's), which the judge model reads. */
  diffPath?: string;
  /** When set, the judge model's verdict is merged into the rules'. */
  model?: VerdictModelChoice;
  secretEnvNames: string[];
}

/** The judge model's input: the workflow judged by the rules already; the model is told their evidence and findings. */
export interface JudgeModelInput extends AttemptRef {
  model: VerdictModelChoice;
  goal: string;
  /** What the rules of domain/judge.ts found, in the workflow. */
  checks: Pick<JudgeResult, 'evidence' | 'findings'>;
  test: Pick<TestRunResult, 'counts' | 'stdoutExcerpt'>;
  /** The diff artifact of the reviewed tree (the review's), which the judge model reads. */
  diffPath?: string;
  secretEnvNames: string[];
}
