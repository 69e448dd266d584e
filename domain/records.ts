// Plain, JSON-safe records that travel between activities and workflows (through Temporal payloads).
// Large texts never travel here: logs, diffs and transcripts are artifacts, referenced by `ArtifactRef`.
import type { FailureCause } from './failure-causes.js';
import type { FailurePattern } from './learning/patterns/types.js';
import type { Finding } from './node-findings.js';

export { taskNodes, type Finding, type TaskNode } from './node-findings.js';

/** Where a stored artifact lives: a path on the host that wrote it. */
export interface ArtifactRef {
  hostId: string;
  path: string;
  bytes: number;
}

/** Counters one coder run produces; summed over attempts by `sumTelemetry`. */
export interface CoderTelemetry {
  patchAttempts: number;
  patchSuccesses: number;
  patchMismatches: number;
  writeFileOperations: number;
  writeFileFallbacks: number;
  mutationOperations: number;
  modelRequests: number;
  inputTokens: number;
  outputTokens: number;
  /** Test runs the coder made inside its attempt (run_tests); absent in records made before the tool. */
  inAttemptTestRuns?: number;
  /** Tool calls refused because the agent version lacks the tool's capability. */
  refusedToolCalls?: number;
  /** Model requests that failed (error, timeout, unreachable); each is in `modelRequests` too. */
  failedModelRequests?: number;
  /**
   * Model requests whose tokens are unknown: no usage came back (every failed request, and replies of servers that
   * report none). Each is in `modelRequests`; none of their tokens is in `inputTokens`/`outputTokens`, which hold only
   * what servers reported. Absent: none (and in records made before it was counted, which estimated instead).
   */
  unmeteredModelRequests?: number;
  /** Waits for an unreachable or restarting model server (apart from the node's re-runs). */
  modelServerWaits?: number;
  /** Tool calls the model wrote as text (a JSON object or fenced block) rather than as `tool_calls`. */
  textToolCalls?: number;
  /** Tool calls whose arguments were not a JSON object (cut off by the output limit, say), answered with a request for a shorter one. */
  truncatedToolCalls?: number;
  /** Replies that called an offered tool with JSON-object arguments (native or written as text): the well-formed ones. */
  offeredToolReplies?: number;
}

export interface CoderResult {
  /** finished: the model called `finish`; max_steps: the step bound was hit; model_error: the model failed (e.g. scripted turns ran out); budget_exhausted: the task's call or token budget ran out. */
  status: 'finished' | 'max_steps' | 'model_error' | 'budget_exhausted';
  summary: string;
  /** Why it did not finish, when it did not (words the failure classifier reads). */
  reason?: string;
  /** The files its tools changed, the first 200 (domain/payload-bounds.ts). */
  changedFiles: string[];
  telemetry: CoderTelemetry;
  /** How many scripted turns this run consumed per role, so the next run continues after them. */
  turnsConsumed: number;
  transcript?: ArtifactRef;
  /** The agent version that ran, e.g. `coder/coder-1` (absent in records made before agent versions). */
  agent?: string;
  /** Ids of the learned skills the coder was given. */
  skillsOffered?: string[];
  /** Why it did not finish, typed (classed by domain/failure-causes.ts). */
  cause?: FailureCause;
  /** The models the server said answered, when one differs from the model asked for (a local server answers as its own). */
  answeredBy?: string[];
}

export type TestOutcome = 'passed' | 'failed' | 'error';

export interface TestCaseResult {
  /** pytest node id, e.g. `tests/test_calc.py::test_add`. */
  id: string;
  outcome: 'passed' | 'failed' | 'error' | 'skipped';
}

export interface TestRunResult {
  /** passed: exit 0 and no failing case; failed: tests ran and some failed (exit 1); error: the run itself broke. */
  outcome: TestOutcome;
  exitCode: number | null;
  counts: { total: number; passed: number; failed: number; errors: number; skipped: number };
  /** Per-test results (bounded to keep payloads small; `casesTruncated` says when cut). */
  cases: TestCaseResult[];
  casesTruncated: boolean;
  /** Why the run is an `error`, in words the failure classifier reads (e.g. "timeout after 60000 ms"). */
  reason?: string;
  stdoutExcerpt: string;
  stderrExcerpt: string;
  durationMs: number;
  log?: ArtifactRef;
  /** What kind of failure the pytest output shows (strongest first, at most 5), when the run did not pass. */
  patterns?: FailurePattern[];
  /** Why the run did not pass, typed (see domain/test-failure-cause.ts). */
  cause?: FailureCause;
  /** Findings of the review's path rules that kept the tests from running at all. */
  refused?: Finding[];
  /** How the run was isolated: `bwrap` or the opt-in `none`. */
  sandbox?: { mode: 'bwrap' | 'none'; network: boolean };
  /** The repository's environment the run used (activities/environments), when the task declares one. */
  environment?: { name: string; key: string };
  /**
   * Files git ignores that the attempt made, removed before the tests ran so they saw what the commit would hold (the
   * first 20; activities/git/ignored-files.ts).
   */
  ignoredRemoved?: string[];
  /** The node's staged change (diff.patch) when its tests did not pass: such a change never reaches the review. */
  diff?: ArtifactRef;
  /** The change the node took before the tests ran, as a tree: the review and the commit read it by id. */
  snapshot?: ChangeSnapshot;
}

/**
 * An attempt's change taken as a git tree from the worktree's bytes (activities/git/snapshot-tree.ts), with what was
 * not taken (a nested git folder, a FIFO or device, a file over the bounds) as findings. Small: an id and a few lines.
 */
export interface ChangeSnapshot {
  treeSha: string;
  findings: Finding[];
}

/** Model calls a reviewer or judge made, for the task's budget. */
export interface VerdictUsage {
  modelSpec: string;
  modelRequests: number;
  inputTokens: number;
  outputTokens: number;
  /** Test runs the coder made inside its attempt (run_tests); absent in records made before the tool. */
  inAttemptTestRuns?: number;
  /** Tool calls refused because the agent version lacks the tool's capability. */
  refusedToolCalls?: number;
  /** Requests that failed (error, timeout, unreachable); each is in `modelRequests` too. */
  failedModelRequests?: number;
  /** Requests whose tokens are unknown (no usage came back); see CoderTelemetry. */
  unmeteredModelRequests?: number;
  /** Waits for an unreachable or restarting model server. */
  modelServerWaits?: number;
}

export interface ReviewResult {
  passed: boolean;
  findings: Finding[];
  /** The reviewer agent version whose model verdict was merged in, when a reviewer model is configured. */
  agent?: string;
  modelUsage?: VerdictUsage;
  /** The changed paths, the first 200 (domain/payload-bounds.ts); `diffStat.files` counts them all. */
  changedFiles: string[];
  /** How many changed paths `changedFiles` leaves out (absent when none). */
  changedFilesOmitted?: number;
  diffStat: { files: number; insertions: number; deletions: number };
  diff?: ArtifactRef;
  /** The tree reviewed (a snapshot of the worktree): the commit records exactly this tree. */
  treeSha?: string;
}

/**
 * A reviewer's or judge's model verdict alone, as findings (its rule's, or `model_verdict_invalid` when it gave no
 * valid verdict): the judge model's is merged into the rule judge's result by the workflow (domain/judge.ts).
 */
export interface ModelVerdict {
  passed: boolean;
  findings: Finding[];
  /** The agent version that answered. */
  agent: string;
  modelUsage: VerdictUsage;
}

export interface JudgeResult {
  passed: boolean;
  /** The judge agent version whose model verdict was merged in, when a judge model is configured. */
  agent?: string;
  modelUsage?: VerdictUsage;
  evidence: string[];
  findings: Finding[];
}

export interface CommitResult {
  sha: string;
  branch: string;
  /** false when a retried commit found its own earlier commit and made none. */
  created: boolean;
  /** For a repository by URL: the remote (without credentials) the branch was pushed to. */
  remote?: string;
  /** The agent versions whose work this commit holds, e.g. `coder/coder-1`. */
  agentVersions?: string[];
}

/** What the coder is told about one earlier attempt of the same task. */
export interface AttemptSummary {
  attempt: number;
  status: string;
  failureClass?: string;
  failureReason?: string;
  coderSummary?: string;
  /** The files the attempt's coder changed (absent in summaries made before they were carried). */
  changedFiles?: string[];
  reviewFindings: Finding[];
  judgeFindings: Finding[];
  test?: Pick<TestRunResult, 'counts' | 'stdoutExcerpt' | 'stderrExcerpt' | 'ignoredRemoved'>;
}
