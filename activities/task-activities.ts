// The task workflow's activities: thin wrappers that give the side-effect functions their worker dependencies,
// heartbeats and cancellation. Secrets are looked up here by name; only names travel through history.
import { Context } from '@temporalio/activity';
import type { TaskEvent } from '../domain/events.js';
import type { AttemptSummary, CoderResult, CommitResult, ReviewResult, TestRunResult } from '../domain/records.js';
import { artifactDirFor } from './artifacts.js';
import { runCoder } from './coder/run-coder.js';
import { appendEvents } from './events-sink.js';
import { commitWorktree, createWorktree, removeWorktree } from './git/index.js';
import { createModelProvider } from './models/router.js';
import { buildTestEnv } from './process-env.js';
import { reviewChanges } from './review/index.js';
import { resolveSecretValues } from './secret-values.js';
import { runTests } from './tests/index.js';

export interface ActivityDeps {
  hostId: string;
  hostQueue: string;
  workDir: string;
  /** JSON-lines file every task event is appended to. */
  eventsFile: string;
  /** Where relative `scripted:` model files resolve (the worker's working folder). */
  cwd?: string;
}

interface AttemptRef {
  workflowId: string;
  attempt: number;
}

export interface ClaimInput extends AttemptRef {
  taskId: string;
  repoPath: string;
  baseRef: string;
}

export interface Claim {
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
}

export interface TestInput extends AttemptRef {
  worktreePath: string;
  command: string[];
  testEnv: Record<string, string>;
  timeoutMs: number;
  secretEnvNames: string[];
  /** Most per-test results returned (failing ones first), to keep history small. */
  maxCases?: number;
}

export interface ReviewInput extends AttemptRef {
  worktreePath: string;
  baseSha: string;
  allowedPaths: string[];
  allowTestEdits: boolean;
  secretEnvNames: string[];
}

export function createTaskActivities(deps: ActivityDeps) {
  const artifactDir = (ref: AttemptRef) => artifactDirFor(deps.workDir, ref.workflowId, ref.attempt);
  const activityContext = () => {
    const context = Context.current();
    return { heartbeat: (details?: unknown) => context.heartbeat(details), signal: context.cancellationSignal };
  };

  return {
    /** Picks this host for the attempt and creates (or finds) its worktree; returns the host's own queue. */
    async claimWorktree(input: ClaimInput): Promise<Claim> {
      const created = await createWorktree({ ...input, workDir: deps.workDir });
      return { ...created, hostId: deps.hostId, hostQueue: deps.hostQueue };
    },

    async runCoder(input: CoderInput): Promise<CoderResult> {
      const provider = await createModelProvider(input.modelSpec, { role: 'coder', startTurn: input.startTurn, cwd: deps.cwd ?? process.cwd() });
      return runCoder({
        worktreePath: input.worktreePath,
        goal: input.goal,
        provider,
        maxSteps: input.maxSteps,
        previousAttempts: input.previousAttempts,
        hint: input.hint,
        secretValues: resolveSecretValues(input.secretEnvNames),
        artifactDir: artifactDir(input),
        hostId: deps.hostId,
        ...activityContext(),
      });
    },

    async runTests(input: TestInput): Promise<TestRunResult> {
      return runTests({
        worktreePath: input.worktreePath,
        command: input.command,
        env: buildTestEnv({ base: process.env, extra: input.testEnv }),
        timeoutMs: input.timeoutMs,
        secretValues: resolveSecretValues(input.secretEnvNames),
        artifactDir: artifactDir(input),
        hostId: deps.hostId,
        maxCases: input.maxCases,
        ...activityContext(),
      });
    },

    async reviewChanges(input: ReviewInput): Promise<ReviewResult> {
      return reviewChanges({
        worktreePath: input.worktreePath,
        baseSha: input.baseSha,
        allowedPaths: input.allowedPaths,
        allowTestEdits: input.allowTestEdits,
        secretValues: resolveSecretValues(input.secretEnvNames),
        artifactDir: artifactDir(input),
        hostId: deps.hostId,
      });
    },

    async commitWorktree(input: AttemptRef & { worktreePath: string; branch: string; message: string }): Promise<CommitResult> {
      return commitWorktree(input);
    },

    async removeWorktree(input: { repoPath: string; worktreePath: string }): Promise<{ removed: boolean; wasClean: boolean }> {
      return removeWorktree(input);
    },

    async recordEvents(input: { events: TaskEvent[] }): Promise<void> {
      await appendEvents(deps.eventsFile, input.events);
    },
  };
}
