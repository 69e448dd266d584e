// The test node's work, shared by the test activity and the coder activity that runs it once the coder finishes
// (activities/tests-after-coder.ts): the tests in the sandbox, the review's rules when asked (TestInput.review) and,
// when asked too (TestInput.commit), the rule judge's verdict and the commit of a change that passes.
import { processRecordsDir, sandboxPolicyFor, type WorkerSandbox } from './sandbox/index.js';
import { resolveSecretValues } from './secret-values.js';
import { runTests, startHeldRun, testThenCommit, type HeldTestRun, type RunTestsInput } from './tests/index.js';
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

/** The test node's work (`run`), and `prepare`, which starts its sandbox ahead of it (see startHeldRun). */
export function createTestNode(deps: TestNodeDeps) {
  const runInput = (input: TestInput, mayStart?: Promise<boolean>): RunTestsInput => {
    const dir = deps.artifactDir(input);
    return {
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
      secretValues: resolveSecretValues(input.secretEnvNames),
      artifactDir: dir,
      hostId: deps.hostId,
      maxCases: input.maxCases,
      mayStart,
      ...deps.activityContext(),
    };
  };
  return {
    /**
     * Starts the node's run now, held until `run` decides it (given as its `prepared`); undefined when the node would
     * not hold its run (without the review's rules it starts the command only once the path rules passed).
     */
    prepare(input: TestInput): HeldTestRun | undefined {
      return input.pathPolicy && input.review ? startHeldRun(runInput(input)) : undefined;
    },
    /** `mayStart`: see RunTestsInput.mayStart (the tests start only on its yes). `prepared`: see prepare. */
    run(input: TestInput, mayStart?: Promise<boolean>, prepared?: HeldTestRun): Promise<TestAndReviewResult> {
      const run = () => runTests(runInput(input, mayStart), prepared);
      const after = input.commit;
      if (!after || !input.review) return run();
      return testThenCommit({
        runTests: run,
        acceptanceTests: after.acceptanceTests,
        stateDir: deps.artifactDir(input),
        signal: deps.activityContext().signal,
        // The review staged the change it passed: the commit records exactly that, as the commit activity would.
        commit: () =>
          deps.commit({
            ...{ workflowId: input.workflowId, attempt: input.attempt, worktreePath: input.worktreePath },
            ...{ branch: after.branch, message: after.message, staged: true, secretEnvNames: input.secretEnvNames },
            removeWorktree: { repoPath: after.repoPath },
          }),
      });
    },
  };
}
