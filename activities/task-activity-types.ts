// The inputs and results of the task workflow's activities: what travels through history, so kept small.
import type { Capability } from '../domain/capabilities.js';
import type { Adaptation, HistoryEntry } from '../domain/learning/adaptations.js';
import type {
  AttemptSummary,
  CoderResult,
  CommitResult,
  JudgeResult,
  ReviewResult,
  TestRunResult,
} from '../domain/records.js';
import type { ModelOptions } from '../domain/model-options.js';
import type { CoderAllowance } from './coder/run-coder.js';
import type { VerdictModel } from './models/model-verdicts.js';
import type { TaskSandboxFields } from './sandbox/index.js';
import type { PathPolicy } from './tests/index.js';

export interface AttemptRef {
  workflowId: string;
  attempt: number;
}

export interface ClaimInput extends AttemptRef {
  /** The coder version the task pins, if any. */
  coderVersion?: string;
  taskId: string;
  repoPath: string;
  baseRef: string;
  /** A project whose history of similar tasks the claim reads too (it carries what a bookkeeping call would). */
  historyOf?: string;
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
  /** Why the history could not be read (the attempt adapts from the task alone). */
  historyError?: string;
}

export interface CoderInput extends AttemptRef {
  worktreePath: string;
  /** The attempt's first coder run: nothing has touched the worktree since its claim made it. */
  untouchedWorktree?: boolean;
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
  /** What this attempt adapts (chosen by the workflow), shown to the coder with the reasons. */
  adaptations?: Adaptation[];
  /** The task's tests, for the coder's run_tests tool (absent: run_tests is not available). */
  tests?: { command: string[]; testEnv: Record<string, string>; timeoutMs: number; maxRuns?: number };
  /** The task's sandbox fields (mode, network, limits): the coder's test runs are isolated like the test node's. */
  sandbox?: TaskSandboxFields;
  /**
   * The test node to run in this same activity once the coder finishes (activities/tests-after-coder.ts): what the
   * test activity would be given, the commit message excepted (it is made from the coder's summary here).
   */
  thenTests?: TestsAfterCoder;
}

/** CoderInput.thenTests: a TestInput without what the coder input already carries. */
export type TestsAfterCoder = Omit<TestInput, keyof AttemptRef | 'worktreePath' | 'commit'> & {
  commit?: Omit<CommitAfterTests, 'message'>;
};

/**
 * The coder activity's result; `tested` is the test node's result when the activity ran it too (CoderInput.thenTests).
 * Without it (not asked, a pause requested, or the tests could not run here) the workflow schedules the test activity.
 */
export type CoderAndTestsResult = CoderResult & Partial<TestedWithCoder>;

/** The test node's result when the coder activity ran it, and when its tests started (epoch ms, the host's clock). */
export interface TestedWithCoder {
  tested: TestAndReviewResult;
  testsStartedAt: number;
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
  /** The review's path rules, checked before the tests run. */
  pathPolicy?: PathPolicy;
  /**
   * When set (no reviewer model), all of the review's rules run on the change before the tests, and the result
   * carries the review: the review node needs no activity of its own. Needs `pathPolicy`.
   */
  review?: { secretEnvNames: string[] };
  /**
   * When set (with `review`; no judge model either), the activity also judges the run by the rules and, when the
   * judge passes, commits and removes the worktree as commitWorktree would: the commit node needs no activity.
   */
  commit?: CommitAfterTests;
}

/** What the test activity needs to commit a change that passes (TestInput.commit). */
export interface CommitAfterTests {
  branch: string;
  message: string;
  /** The task's acceptance tests, which the judge requires. */
  acceptanceTests: string[];
  /** The repository whose worktree is removed once committed. */
  repoPath: string;
}

/**
 * The test node's result, with the review when the test activity ran it (TestInput.review), and the rule judge's
 * verdict and the commit when it was asked to commit (TestInput.commit).
 */
export type TestAndReviewResult = TestRunResult & {
  review?: ReviewResult;
  judge?: JudgeResult;
  commit?: CommitAndRemoveResult;
};

export interface CommitInput extends AttemptRef {
  worktreePath: string;
  branch: string;
  message: string;
  /** The review staged the worktree, so the commit records exactly the reviewed change. */
  staged?: boolean;
  secretEnvNames?: string[];
  /** When set, the committed worktree is removed too (its repository), so the attempt needs no removal call. */
  removeWorktree?: { repoPath: string };
}

/** `worktreeRemoved`: the activity removed the worktree (only asked with CommitInput.removeWorktree). */
export type CommitAndRemoveResult = CommitResult & { worktreeRemoved?: boolean };

export interface ReviewInput extends AttemptRef {
  worktreePath: string;
  baseSha: string;
  allowedPaths: string[];
  allowTestEdits: boolean;
  secretEnvNames: string[];
  /** When set, the reviewer model's verdict on the diff is merged into the policy checks. */
  model?: VerdictModelChoice;
  goal?: string;
}

/** A reviewer or judge model for one call: its spec, a pinned agent version, turns earlier attempts used. */
export type VerdictModelChoice = Omit<VerdictModel, 'cwd'>;

export interface JudgeModelInput extends AttemptRef {
  judge: JudgeResult;
  goal: string;
  test?: Pick<TestRunResult, 'counts' | 'stdoutExcerpt'>;
  diffPath?: string;
  model: VerdictModelChoice;
  secretEnvNames: string[];
}
