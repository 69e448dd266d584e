// The task workflow's activities: thin wrappers that give the side-effect functions their worker dependencies,
// heartbeats and cancellation. Secrets are looked up here by name; only names travel through history.
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { agentLabel } from '../domain/agents.js';
import type { CoderResult, CommitResult, TestRunResult } from '../domain/records.js';
import { artifactDirFor } from './artifacts.js';
import { heartbeatWhile } from './heartbeat-while.js';
import { loadProgress, TRANSCRIPT_NAME, type CoderHeartbeat } from './coder/progress.js';
import { buildLearningSections } from './coder/learning-sections.js';
import { runCoder } from './coder/run-coder.js';
import { listRepoFiles } from './coder/repo-map.js';
import { DEFAULT_MAX_TEST_RUNS } from './coder/tools/run-tests-tool.js';
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
import { commitThenRemove } from './git/commit-then-remove.js';
import { readClaimHistory } from './learning/read-project-learning.js';
import { loadAgent } from './models/agent-registry.js';
import { coderModelSettings } from './models/provider-env.js';
import { createModelProvider } from './models/router.js';
import { resolveSecretValues, scrubForSink } from './secret-values.js';
import { refuseSecretInGoal } from './secret-in-task.js';
import { samplingForAttempt } from '../domain/retry-sampling.js';
import { processRecordsDir, resolveWorkerSandbox, sandboxPolicyFor, type WorkerSandbox } from './sandbox/index.js';
import { runTests } from './tests/index.js';
import { createVerdictActivities } from './verdict-activities.js';
import { createEnvironmentActivities } from './environment-activities.js';
import type {
  AttemptRef,
  Claim,
  ClaimInput,
  CoderInput,
  CommitAndRemoveResult,
  CommitInput,
  TestInput,
} from './task-activity-types.js';

export type * from './task-activity-types.js';

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
      // The history read never throws, so it runs beside the worktree's creation.
      const [created, history] = await Promise.all([
        heartbeatWhile(() => createWorktree({ ...input, ...repo, workDir: deps.workDir })),
        input.historyOf ? readClaimHistory({ ...input, project: input.historyOf }) : {},
      ]);
      return {
        ...created,
        ...history,
        hostId: deps.hostId,
        hostQueue: deps.hostQueue,
        coderAgent: { version: agent.version, capabilities: agent.capabilities },
      };
    },

    /**
     * Runs the coder; a retry of this activity (or a re-run of the node) resumes from the transcript saved after each
     * turn.
     */
    async runCoder(input: CoderInput): Promise<CoderResult> {
      refuseSecretInGoal(input);
      const { info } = Context.current();
      const dir = artifactDir(input);
      const details = info.heartbeatDetails as CoderHeartbeat | undefined;
      // The worktree's listing (for the first message, by `git ls-files`) runs beside the reads below.
      const repoFiles = listRepoFiles(input.worktreePath);
      // No process outlives the activity: the listing is awaited before it ends, whether runCoder used it or not (a
      // resumed run has its first messages already) and whatever failed.
      const listed = repoFiles.then(
        () => undefined,
        () => undefined,
      );
      try {
        // Heartbeats while it reads (the learning query alone may take 5 s on a loaded machine): a retry after a crash
        // is not itself taken for a crash by a short heartbeat timeout. The earlier try's details are kept.
        const [resume, { agent, prompt }, learning] = await heartbeatWhile(
          () =>
            Promise.all([
              // Progress of this attempt exists only when an earlier try (activity retry or node re-run) failed midway.
              loadProgress(details?.transcriptPath ?? path.join(dir, TRANSCRIPT_NAME)),
              loadAgent('coder', { pinned: input.agentVersion }),
              buildLearningSections({
                project: input.project ?? 'default',
                // The skills the attempt's claim read, through the workflow (runs whose claim read none: read now).
                offered: input.skills,
                goal: input.goal,
                adaptations: input.adaptations ?? [],
                worktreePath: input.worktreePath,
                previousAttempts: input.previousAttempts,
              }),
            ]),
          undefined,
          details,
        );
        const startTurn = input.startTurn + (resume?.progress.turnsConsumed ?? 0);
        const provider = await createModelProvider(input.modelSpec, {
          role: 'coder',
          startTurn,
          cwd: deps.cwd ?? process.cwd(),
          // A retry samples differently from the attempts before it (domain/retry-sampling.ts).
          parameters: samplingForAttempt(agent.parameters, input.previousAttempts.length),
        });
        // Scripted turns are a fixed sequence that cannot react to a refusal: only a model is coached.
        const coached = !input.modelSpec.startsWith('scripted:');
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
          agent: {
            label: agentLabel(agent),
            capabilities: agent.capabilities,
            ...(agent.context ? { context: agent.context } : {}),
            ...(agent.tools ? { tools: agent.tools } : {}),
          },
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
            environment: input.tests.environment,
            deadlineAt: input.allowance?.deadlineAt,
            ...activityContext(),
          },
          extraSections: learning.sections,
          ...(coached
            ? { coaching: { refuseTestEdits: input.allowTestEdits === false, refuseEmptyFinish: true } }
            : {}),
          repoFiles,
          resume,
          ...coderModelSettings(process.env, input.modelOptions, agent.parameters.contextWindow),
          ...activityContext(),
        });
        return {
          ...result,
          agent: agentLabel(agent),
          ...(learning.skillsOffered.length > 0 ? { skillsOffered: learning.skillsOffered } : {}),
        };
      } finally {
        await listed;
      }
    },

    /** Runs the task's tests in the sandbox; the review's path rules first, so a refused change never executes. */
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
        environment: input.environment,
        ...activityContext(),
      });
    },

    ...createEnvironmentActivities({ ...deps, workerSandbox }),

    ...createVerdictActivities({ ...deps, workerSandbox, artifactDir }),

    /** Commits once (and pushes a cached clone's branch); with `removeWorktree`, removes the committed worktree. */
    async commitWorktree(input: CommitInput): Promise<CommitAndRemoveResult> {
      const { removeWorktree: removal, ...commitInput } = input;
      return heartbeatWhile(() =>
        commitThenRemove({
          commit: () => commitAndPush(commitInput, deps.workDir),
          stateDir: artifactDir(input),
          removal: removal && {
            repoPath: localRepoPath(removal.repoPath, deps.workDir),
            worktreePath: input.worktreePath,
          },
        }),
      );
    },

    async removeWorktree(input: {
      repoPath: string;
      worktreePath: string;
    }): Promise<{ removed: boolean; wasClean: boolean }> {
      return heartbeatWhile(() => removeWorktree({ ...input, repoPath: localRepoPath(input.repoPath, deps.workDir) }));
    },
  };
}

/** The message is built from the goal and the coder's summary: scrubbed before git stores it (and its reflog). */
async function commitAndPush(input: Omit<CommitInput, 'removeWorktree'>, workDir: string): Promise<CommitResult> {
  const commit = await commitWorktree({ ...input, message: scrubForSink(input.message, input.secretEnvNames) });
  if (!(await isCachedCloneWorktree(input.worktreePath, workDir))) return commit;
  const { remote } = await pushBranch({ worktreePath: input.worktreePath, branch: commit.branch, sha: commit.sha });
  return { ...commit, remote };
}
