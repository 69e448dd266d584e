// The task workflow's activities: thin wrappers that give the side-effect functions their worker dependencies,
// heartbeats and cancellation. Secrets are looked up here by name; only names travel through history.
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { agentLabel } from '../domain/agents.js';
import type { TaskEvent } from '../domain/events.js';
import type {
  AttemptSummary,
  CoderResult,
  CommitResult,
  JudgeResult,
  ReviewResult,
  TestRunResult,
} from '../domain/records.js';
import { artifactDirFor } from './artifacts.js';
import { heartbeatWhile } from './heartbeat-while.js';
import { loadProgress, TRANSCRIPT_NAME, type CoderHeartbeat } from './coder/progress.js';
import type { Adaptation } from '../domain/learning/adaptations.js';
import { buildLearningSections } from './coder/learning-sections.js';
import { runCoder, type CoderAllowance } from './coder/run-coder.js';
import { DEFAULT_MAX_TEST_RUNS } from './coder/tools/run-tests.js';
import type { Capability } from '../domain/capabilities.js';
import { appendEvents } from './events-sink.js';
import { isRepoUrl } from '../domain/repo-url.js';
import {
  commitWorktree,
  createWorktree,
  fetchBase,
  isCachedCloneWorktree,
  localRepoPath,
  pushBranch,
  removeWorktree,
} from './git/index.js';
import { loadAgent } from './models/agent-registry.js';
import { judgeWithModel, reviewWithModel, type VerdictModel } from './models/model-verdicts.js';
import { createModelProvider } from './models/router.js';
import { reviewChanges } from './review/index.js';
import { resolveSecretValues, scrubForSink } from './secret-values.js';
import {
  processRecordsDir,
  resolveWorkerSandbox,
  sandboxPolicyFor,
  type TaskSandboxFields,
  type WorkerSandbox,
} from './sandbox/index.js';
import { runTests, type PathPolicy } from './tests/index.js';

export interface ActivityDeps {
  hostId: string;
  hostQueue: string;
  workDir: string;
  /** JSON-lines file every task event is appended to. */
  eventsFile: string;
  /** Where relative `scripted:` model files resolve (the worker's working folder). */
  cwd?: string;
  /** The worker's sandbox mode and default limits; by default from TASKLOOP_SANDBOX* variables (bwrap). */
  sandbox?: WorkerSandbox;
}

interface AttemptRef {
  workflowId: string;
  attempt: number;
}

export interface ClaimInput extends AttemptRef {
  /** The coder version the task pins, if any. */
  coderVersion?: string;
  taskId: string;
  repoPath: string;
  baseRef: string;
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
  /** The project, whose learned skills are offered when they match the goal. */
  project?: string;
  /** What this attempt adapts (chosen by the workflow), shown to the coder with the reasons. */
  adaptations?: Adaptation[];
  /** The task's tests, for the coder's run_tests tool (absent: run_tests is not available). */
  tests?: { command: string[]; testEnv: Record<string, string>; timeoutMs: number; maxRuns?: number };
  /** The task's sandbox fields (mode, network, limits): the coder's test runs are isolated like the test node's. */
  sandbox?: TaskSandboxFields;
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
}

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

export function createTaskActivities(deps: ActivityDeps) {
  const workerSandbox = deps.sandbox ?? resolveWorkerSandbox({ workDir: deps.workDir });
  // Per run as well as per attempt: a later run of the same workflow id (a retried project task) starts again at
  // attempt 1 and must not find, or resume from, the transcript of an earlier run.
  const artifactDir = (ref: AttemptRef) =>
    path.join(
      artifactDirFor(deps.workDir, ref.workflowId, ref.attempt),
      Context.current().info.workflowExecution?.runId ?? 'no-run',
    );
  const activityContext = () => {
    const context = Context.current();
    return { heartbeat: (details?: unknown) => context.heartbeat(details), signal: context.cancellationSignal };
  };

  return {
    /** Picks this host for the attempt and creates (or finds) its worktree; returns the host's own queue. */
    async claimWorktree(input: ClaimInput): Promise<Claim> {
      // A repository by URL: this host's clone, with the base ref fetched now (one fetch per claim).
      const local = isRepoUrl(input.repoPath)
        ? await fetchBase(input.repoPath, deps.workDir, input.baseRef)
        : undefined;
      const repo = local ? { repoPath: local.repoPath, baseRef: local.baseSha } : {};
      const { agent } = await loadAgent('coder', { pinned: input.coderVersion });
      const created = await heartbeatWhile(() => createWorktree({ ...input, ...repo, workDir: deps.workDir }));
      return {
        ...created,
        hostId: deps.hostId,
        hostQueue: deps.hostQueue,
        coderAgent: { version: agent.version, capabilities: agent.capabilities },
      };
    },

    /** Runs the coder; a retry of this activity (or a re-run of the node) resumes from the transcript saved after each turn. */
    async runCoder(input: CoderInput): Promise<CoderResult> {
      const { info } = Context.current();
      const dir = artifactDir(input);
      const details = info.heartbeatDetails as CoderHeartbeat | undefined;
      // Progress of this attempt exists only when an earlier try (activity retry or node re-run) failed midway.
      const resume = await loadProgress(details?.transcriptPath ?? path.join(dir, TRANSCRIPT_NAME));
      const startTurn = input.startTurn + (resume?.progress.turnsConsumed ?? 0);
      const { agent, prompt } = await loadAgent('coder', { pinned: input.agentVersion });
      const provider = await createModelProvider(input.modelSpec, {
        role: 'coder',
        startTurn,
        cwd: deps.cwd ?? process.cwd(),
        parameters: agent.parameters,
      });
      const learning = await buildLearningSections({
        project: input.project ?? 'default',
        goal: input.goal,
        adaptations: input.adaptations ?? [],
        worktreePath: input.worktreePath,
        previousAttempts: input.previousAttempts,
      });
      const result = await runCoder({
        worktreePath: input.worktreePath,
        goal: input.goal,
        provider,
        maxSteps: input.maxSteps,
        previousAttempts: input.previousAttempts,
        hint: input.hint,
        secretValues: resolveSecretValues(input.secretEnvNames),
        artifactDir: dir,
        hostId: deps.hostId,
        allowance: input.allowance,
        systemPrompt: prompt,
        agent: { label: agentLabel(agent), capabilities: agent.capabilities },
        tests: input.tests && {
          command: input.tests.command,
          testEnv: input.tests.testEnv,
          sandbox: sandboxPolicyFor(workerSandbox, input.sandbox),
          processDir: processRecordsDir(deps.workDir),
          timeoutMs: input.tests.timeoutMs,
          secretValues: resolveSecretValues(input.secretEnvNames),
          artifactDir: dir,
          hostId: deps.hostId,
          maxRuns: input.tests.maxRuns ?? DEFAULT_MAX_TEST_RUNS,
          deadlineAt: input.allowance?.deadlineAt,
          ...activityContext(),
        },
        extraSections: learning.sections,
        resume,
        ...activityContext(),
      });
      return {
        ...result,
        agent: agentLabel(agent),
        ...(learning.skillsOffered.length > 0 ? { skillsOffered: learning.skillsOffered } : {}),
      };
    },

    async runTests(input: TestInput): Promise<TestRunResult> {
      return runTests({
        worktreePath: input.worktreePath,
        command: input.command,
        testEnv: input.testEnv,
        sandbox: sandboxPolicyFor(workerSandbox, input.sandbox),
        pathPolicy: input.pathPolicy,
        processDir: processRecordsDir(deps.workDir),
        timeoutMs: input.timeoutMs,
        secretValues: resolveSecretValues(input.secretEnvNames),
        artifactDir: artifactDir(input),
        hostId: deps.hostId,
        maxCases: input.maxCases,
        ...activityContext(),
      });
    },

    async reviewChanges(input: ReviewInput): Promise<ReviewResult> {
      const review = await heartbeatWhile(() =>
        reviewChanges({
          worktreePath: input.worktreePath,
          baseSha: input.baseSha,
          allowedPaths: input.allowedPaths,
          allowTestEdits: input.allowTestEdits,
          secretValues: resolveSecretValues(input.secretEnvNames),
          artifactDir: artifactDir(input),
          hostId: deps.hostId,
          sandbox: sandboxPolicyFor(workerSandbox),
        }),
      );
      if (!input.model) return review;
      const model = { ...input.model, cwd: deps.cwd ?? process.cwd() };
      return heartbeatWhile(() =>
        reviewWithModel({
          review,
          goal: input.goal ?? '',
          model,
          secretValues: resolveSecretValues(input.secretEnvNames),
        }),
      );
    },

    /** Merges the judge model's verdict into the rule-based judgment (only called when a judge model is set). */
    async judgeWithModel(input: JudgeModelInput): Promise<JudgeResult> {
      const model = { ...input.model, cwd: deps.cwd ?? process.cwd() };
      return heartbeatWhile(() =>
        judgeWithModel({
          judge: input.judge,
          goal: input.goal,
          test: input.test,
          diffPath: input.diffPath,
          model,
          secretValues: resolveSecretValues(input.secretEnvNames),
        }),
      );
    },

    /** `staged`: the review staged the worktree, so the commit records exactly the reviewed change. */
    async commitWorktree(
      input: AttemptRef & {
        worktreePath: string;
        branch: string;
        message: string;
        staged?: boolean;
        secretEnvNames?: string[];
      },
    ): Promise<CommitResult> {
      // The message is built from the goal and the coder's summary: scrubbed before git stores it (and its reflog).
      const commit = await heartbeatWhile(() =>
        commitWorktree({ ...input, message: scrubForSink(input.message, input.secretEnvNames) }),
      );
      if (!(await isCachedCloneWorktree(input.worktreePath, deps.workDir))) return commit;
      const { remote } = await heartbeatWhile(() =>
        pushBranch({ worktreePath: input.worktreePath, branch: commit.branch, sha: commit.sha }),
      );
      return { ...commit, remote };
    },

    async removeWorktree(input: {
      repoPath: string;
      worktreePath: string;
    }): Promise<{ removed: boolean; wasClean: boolean }> {
      return heartbeatWhile(() => removeWorktree({ ...input, repoPath: localRepoPath(input.repoPath, deps.workDir) }));
    },

    async recordEvents(input: { events: TaskEvent[] }): Promise<void> {
      await appendEvents(deps.eventsFile, input.events);
    },
  };
}
