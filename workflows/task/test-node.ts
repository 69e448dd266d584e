// What the test node of an attempt is given: the same whether the coder's activity runs it (CoderInput.thenTests) or
// the workflow schedules the test activity.
import type { Claim, TestsAfterCoder } from '../../activities/index.js';
import type { TaskRun } from './task-run.js';

const MAX_CASES_IN_HISTORY = 100;

/**
 * Without a reviewer model the review's rules run in the test node (one diff, no activity of their own); with no
 * judge model either, that node also judges by the rules and commits a change that passes. No patch marker is needed:
 * a recorded test result without `commit` (a history from before, or a worker that does not know TestInput.commit)
 * takes the path that schedules the commit activity, as the recorded history did.
 */
export function testNodeOf(run: TaskRun, claim: Claim): TestsAfterCoder {
  const { spec } = run;
  const reviewerModel = run.verdictModel('reviewer');
  const commitInTest = !reviewerModel && !run.verdictModel('judge');
  return {
    command: spec.testCommand,
    testEnv: spec.testEnv,
    timeoutMs: spec.testTimeoutMs,
    secretEnvNames: spec.secretEnvNames,
    maxCases: MAX_CASES_IN_HISTORY,
    sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
    pathPolicy: { baseSha: claim.baseSha, allowedPaths: spec.allowedPaths, allowTestEdits: spec.allowTestEdits },
    review: reviewerModel ? undefined : { secretEnvNames: spec.secretEnvNames },
    commit: commitInTest
      ? { branch: claim.branch, acceptanceTests: spec.acceptanceTests, repoPath: spec.repo }
      : undefined,
  };
}
