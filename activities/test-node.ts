// The test node's work, shared by the test activity and the coder activity that runs it once the coder finishes
// (activities/tests-after-coder.ts): the tests in the sandbox, the review's rules when asked (TestInput.review) and,
// when asked too (TestInput.commit), the rule judge's verdict and the commit of a change that passes.
import { processRecordsDir, sandboxPolicyFor, type WorkerSandbox } from './sandbox/index.js';
import { resolveSecretValues } from './secret-values.js';
import { runTests, testThenCommit } from './tests/index.js';
import type {
  AttemptRef,
  CommitAndRemoveResult,
  CommitInput,
  TestAndReviewResult,
  TestInput,
} from './task-activity-types.js';

export interface TestNodeDeps {
  hostId: string;
  workDir: string;
  workerSandbox: WorkerSandbox;
  /** The attempt's artifact folder (per workflow run and attempt). */
  artifactDir: (ref: AttemptRef) => string;
  /** The running activity's heartbeat and cancellation. */
  activityContext: () => { heartbeat: (details?: unknown) => void; signal: AbortSignal };
  /** The commit node's work (commitWorktree's), which also removes the committed worktree. */
  commit: (input: CommitInput) => Promise<CommitAndRemoveResult>;
}

/** `mayStart`: see RunTestsInput.mayStart (the tests start only on its yes). */
export function createTestNode(deps: TestNodeDeps) {
  return (input: TestInput, mayStart?: Promise<boolean>): Promise<TestAndReviewResult> => {
    const secretValues = resolveSecretValues(input.secretEnvNames);
    const dir = deps.artifactDir(input);
    const context = deps.activityContext();
    const run = () =>
      runTests({
        worktreePath: input.worktreePath,
        command: input.command,
        testEnv: input.testEnv,
        sandbox: sandboxPolicyFor(deps.workerSandbox, input.sandbox),
        pathPolicy: input.pathPolicy,
        // The review's syntax check runs like the review activity's: in the worker's default sandbox.
        review: input.review && {
          secretValues: resolveSecretValues(input.review.secretEnvNames),
          artifactDir: dir,
          hostId: deps.hostId,
          sandbox: sandboxPolicyFor(deps.workerSandbox),
        },
        processDir: processRecordsDir(deps.workDir),
        timeoutMs: input.timeoutMs,
        secretValues,
        artifactDir: dir,
        hostId: deps.hostId,
        maxCases: input.maxCases,
        mayStart,
        ...context,
      });
    const after = input.commit;
    if (!after || !input.review) return run();
    return testThenCommit({
      runTests: run,
      acceptanceTests: after.acceptanceTests,
      stateDir: dir,
      signal: context.signal,
      // The review staged the change it passed: the commit records exactly that, as the commit activity would.
      commit: () =>
        deps.commit({
          ...{ workflowId: input.workflowId, attempt: input.attempt, worktreePath: input.worktreePath },
          ...{ branch: after.branch, message: after.message, staged: true, secretEnvNames: input.secretEnvNames },
          removeWorktree: { repoPath: after.repoPath },
        }),
    });
  };
}
