// The task workflow's activities: thin wrappers that give the side-effect functions their worker dependencies,
// heartbeats and cancellation. Secrets are looked up here by name; only names travel through history. Each step's
// activities are built in a file of their own (worktree, coder, environment, verdicts); the test run is here.
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { TestRunResult } from '../domain/records.js';
import { heartbeatAndSignal } from './activity-context.js';
import { artifactDirFor } from './artifacts.js';
import { createCoderActivity } from './coder-activity.js';
import { resolveSecretValues } from './secret-values.js';
import { processRecordsDir, resolveWorkerSandbox, sandboxPolicyFor, type WorkerSandbox } from './sandbox/index.js';
import { runTests } from './tests/index.js';
import { createVerdictActivities } from './verdict-activities.js';
import { createEnvironmentActivities } from './environment-activities.js';
import { createWorktreeActivities } from './worktree-activities.js';
import type { AttemptRef, TestInput } from './task-activity-types.js';

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
  /** The worker holds payload keys and refuses a task whose start input is in clear (platform/codec/clear-inputs.ts). */
  refuseClearInputs?: boolean;
}

export function createTaskActivities(deps: ActivityDeps) {
  const workerSandbox = deps.sandbox ?? resolveWorkerSandbox({ workDir: deps.workDir });
  // Per run as well as per attempt: a later run of the same workflow id (a retried project task) starts again at
  // attempt 1 and must not find, or resume from, the transcript of an earlier run.
  const artifactDir = (ref: AttemptRef) =>
    path.join(
      artifactDirFor(deps.workDir, ref.workflowId, ref.attempt, ref.candidate),
      Context.current().info.workflowExecution?.runId ?? 'no-run',
    );

  return {
    ...createWorktreeActivities({ ...deps, artifactDir }),

    ...createCoderActivity({ ...deps, workerSandbox, artifactDir }),

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
        ...heartbeatAndSignal(),
      });
    },

    ...createEnvironmentActivities({ ...deps, workerSandbox }),

    ...createVerdictActivities({ ...deps, workerSandbox, artifactDir }),
  };
}
