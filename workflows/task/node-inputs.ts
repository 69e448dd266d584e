// What each node's activity is given: the task's spec and the attempt's claim, shaped into the activity's input.
import type { AttemptRef, Claim, CoderInput, TestInput } from '../../activities/index.js';
import { roundStartOf } from '../../domain/approval.js';
import type { AttemptSummary } from '../../domain/records.js';
import type { TaskRun } from './task-run.js';

const MAX_CASES_IN_HISTORY = 100;

/** The test node's input: the task's command in its sandbox, the review's path rules checked before it runs. */
export function testInputOf(run: TaskRun, claim: Claim): Omit<TestInput, 'workflowId' | 'attempt'> {
  const { spec } = run;
  return {
    worktreePath: claim.worktreePath,
    command: spec.testCommand,
    testEnv: spec.testEnv,
    timeoutMs: spec.testTimeoutMs,
    secretEnvNames: spec.secretEnvNames,
    maxCases: MAX_CASES_IN_HISTORY,
    sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
    pathPolicy: { baseSha: claim.baseSha, allowedPaths: spec.allowedPaths, allowTestEdits: spec.allowTestEdits },
    ...(claim.environment ? { environment: testEnvironmentOf(claim.environment) } : {}),
  };
}

/** What a test run needs of the attempt's environment (the reference less what only the attempt record keeps). */
export const testEnvironmentOf = ({ key, name, hostDir, interpreter }: NonNullable<Claim['environment']>) => ({
  key,
  name,
  hostDir,
  interpreter,
});

/** The code node's input: the task's goal, model, budgets and evidence of the attempts before. */
export function coderInputOf(
  run: TaskRun,
  claim: Claim,
  previousAttempts: AttemptSummary[],
  ref: AttemptRef,
): CoderInput {
  const { spec } = run;
  const record = run.currentAttempt;
  const round = roundStartOf(run.state.review);
  return {
    // The attempt and, after the first, its candidate: their own artifacts and sampling (domain/samples.ts).
    ...ref,
    worktreePath: claim.worktreePath,
    goal: spec.goal,
    modelSpec: spec.models.coder,
    allowance: run.coderAllowance(spec.models.coder),
    agentVersion: spec.agents?.coder,
    modelOptions: spec.modelOptions?.coder,
    maxSteps: spec.maxCoderSteps,
    startTurn: run.state.turnsConsumed,
    previousAttempts,
    hint: record.hint,
    secretEnvNames: spec.secretEnvNames,
    project: spec.project,
    // What the claim read of the project's skills for this goal, handed on (the coder reads them itself without).
    ...(claim.skills && { skills: claim.skills }),
    adaptations: record.adaptations,
    tests: {
      command: spec.testCommand,
      testEnv: spec.testEnv,
      timeoutMs: spec.testTimeoutMs,
      ...(claim.environment ? { environment: testEnvironmentOf(claim.environment) } : {}),
    },
    sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
    allowTestEdits: spec.allowTestEdits,
    // A later review round: the coder is told the person's words, with the change they read.
    ...(round && {
      reviewRequest: {
        round: round.round,
        comment: round.comment,
        author: round.author,
        sha: round.sha,
        ...(round.baseSha && { baseSha: round.baseSha }),
      },
    }),
  };
}
