// The landing's activities: the merge, the tests on the merged tree and the ref update run on the host that holds
// the repository; the enqueue (signal-with-start of the branch's lander) runs anywhere.
import path from 'node:path';
import { Context } from '@temporalio/activity';
import type { LandingRequest, MergeFound, LandFound } from '../../domain/landing.js';
import { landerWorkflowId } from '../../domain/landing.js';
import type { TestRunResult } from '../../domain/records.js';
import { heartbeatAndSignal } from '../activity-context.js';
import { toSafeName } from '../artifacts.js';
import { heartbeatWhile } from '../heartbeat-while.js';
import { processRecordsDir, sandboxPolicyFor, type TaskSandboxFields, type WorkerSandbox } from '../sandbox/index.js';
import { resolveSecretValues } from '../secret-values.js';
import { runTests } from '../tests/index.js';
import { enqueueSignal, type LanderWorkflow } from '../../workflows/land/messages.js';
import { landChange, type LandChangeInput } from './land-change.js';
import { landingGitDir } from './landing-repo.js';
import { withTreeFiles } from './materialize-tree.js';
import { mergeChange, type MergeChangeInput } from './merge-change.js';

export interface LandingDeps {
  hostId: string;
  workDir: string;
  workerSandbox: WorkerSandbox;
}

export interface TestMergedTreeInput {
  repo: string;
  target: string;
  tree: string;
  /** The task whose tests run (names the artifact folder). */
  taskWorkflowId: string;
  tests: LandingRequest['tests'];
}

const MAX_CASES = 100;

export function createLandingActivities(deps: LandingDeps) {
  return {
    async mergeChange(input: Omit<MergeChangeInput, 'workDir'>): Promise<MergeFound> {
      return heartbeatWhile(() => mergeChange({ ...input, workDir: deps.workDir }));
    },

    /** The task's tests, in the sandbox, on the files of the merged tree (a fresh folder, removed afterwards). */
    async testMergedTree(input: TestMergedTreeInput): Promise<TestRunResult> {
      const gitDir = await landingGitDir({ ...input, workDir: deps.workDir });
      const artifactDir = path.resolve(
        deps.workDir,
        'artifacts',
        toSafeName(input.taskWorkflowId),
        `land-${input.tree.slice(0, 12)}`,
      );
      const { tests } = input;
      return withTreeFiles(path.join(deps.workDir, 'landing'), gitDir, input.tree, (folder) =>
        runTests({
          worktreePath: folder,
          command: tests.command,
          testEnv: tests.testEnv,
          sandbox: sandboxPolicyFor(deps.workerSandbox, tests.sandbox as TaskSandboxFields | undefined),
          processDir: processRecordsDir(deps.workDir),
          timeoutMs: tests.timeoutMs,
          secretValues: resolveSecretValues(tests.secretEnvNames),
          artifactDir,
          hostId: deps.hostId,
          maxCases: MAX_CASES,
          ...(tests.environment ? { environment: tests.environment } : {}),
          ...heartbeatAndSignal(),
        }),
      );
    },

    async landChange(input: Omit<LandChangeInput, 'workDir'>): Promise<LandFound> {
      return heartbeatWhile(() => landChange({ ...input, workDir: deps.workDir }));
    },

    /** Queues a change on its branch's lander, starting the lander when none runs (signal-with-start). */
    async enqueueLanding(request: LandingRequest): Promise<{ landerId: string }> {
      const context = Context.current();
      const landerId = landerWorkflowId(request.repo, request.target);
      await context.client.workflow.signalWithStart<LanderWorkflow, [LandingRequest]>('landerWorkflow', {
        workflowId: landerId,
        taskQueue: context.info.taskQueue,
        args: [{ repo: request.repo, target: request.target }],
        signal: enqueueSignal,
        signalArgs: [request],
        staticSummary: `Landing queue: ${request.target}`,
      });
      return { landerId };
    },
  };
}

export type LandingActivities = ReturnType<typeof createLandingActivities>;
