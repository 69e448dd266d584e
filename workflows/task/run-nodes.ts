// The nodes of one attempt after its claim: code -> test -> review -> judge -> commit. Each node is one activity whose
// result the workflow reads, and one pure decision on it; pause and cancel are honoured at the checkpoint before each.
import { findMissingCapability } from '../../domain/capabilities.js';
import { commitMessage } from '../../domain/commit-message.js';
import { causeOfCoderResult, causeOfTestResult } from '../../domain/node-causes.js';
import { agentVersionsOf, summarizeAttempt } from '../../domain/task-state.js';
import type { Claim, CoderInput, TestInput } from '../../activities/index.js';
import type { AttemptSummary } from '../../domain/records.js';
import { keepCoderSpending } from './coder-spending.js';
import { keepVerdictSpending } from './verdict-spending.js';
import { chooseAttemptAdaptations } from './learning.js';
import type { HostActivities } from './proxies.js';
import type { AttemptResult } from './run-attempt.js';
import { checkpoint, failed, passed, runNode, verdictOutcome, type AttemptContext } from './run-node.js';
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
const testEnvironmentOf = ({ key, name, hostDir, interpreter }: NonNullable<Claim['environment']>) => ({
  key,
  name,
  hostDir,
  interpreter,
});

/** The code node's input: the task's goal, model, budgets and evidence of the attempts before. */
export function coderInputOf(run: TaskRun, claim: Claim, previousAttempts: AttemptSummary[]): CoderInput {
  const { spec } = run;
  const record = run.currentAttempt;
  return {
    workflowId: run.state.workflowId,
    attempt: record.attempt,
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
    adaptations: record.adaptations,
    tests: {
      command: spec.testCommand,
      testEnv: spec.testEnv,
      timeoutMs: spec.testTimeoutMs,
      ...(claim.environment ? { environment: testEnvironmentOf(claim.environment) } : {}),
    },
    sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
    allowTestEdits: spec.allowTestEdits,
  };
}

export async function runNodes(context: AttemptContext, claim: Claim, host: HostActivities): Promise<AttemptResult> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  const ref = { workflowId: run.state.workflowId, attempt: record.attempt };
  const previousAttempts = run.state.attempts.slice(0, -1).map(summarizeAttempt);

  await checkpoint(run, 'code');
  record.adaptations = chooseAttemptAdaptations(run, claim.history);
  const coded = await runNode(context, 'code', async () => {
    const exhausted = run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    // A coder version that cannot do what the task needs fails before any model call (cause CapabilityMissing).
    const agent = claim.coderAgent;
    const missing =
      agent && findMissingCapability({ role: 'coder', version: agent.version, granted: agent.capabilities });
    if (missing) return failed(missing);
    record.coderModel = spec.models.coder;
    const coder = await host
      .runCoder(`coder, attempt ${ref.attempt}`, coderInputOf(run, claim, previousAttempts))
      .catch(keepCoderSpending(record, run));
    record.coder = coder;
    run.state.turnsConsumed += coder.turnsConsumed;
    run.refreshTelemetry();
    return coder.status === 'finished' ? passed(coder) : failed(causeOfCoderResult(coder));
  });
  if (!coded.ok) return { kind: 'failed', ...coded };

  await checkpoint(run, 'test');
  const tested = await runNode(context, 'test', async () => {
    const test = await host.runTests(`pytest, attempt ${ref.attempt}`, { ...ref, ...testInputOf(run, claim) });
    record.test = test;
    // A change the review's path rules refused never ran: the review node finds the same rules broken and says so.
    return test.outcome === 'passed' || test.refused ? passed(test) : failed(causeOfTestResult(test));
  });
  if (!tested.ok) {
    run.emit('TEST_FAILED', { counts: record.test?.counts, reason: tested.failure.reason });
    return { kind: 'failed', ...tested };
  }

  await checkpoint(run, 'review');
  const reviewed = await runNode(context, 'review', async () => {
    const model = run.verdictModel('reviewer');
    const exhausted = model && run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    const review = await host
      .reviewChanges(`review, attempt ${ref.attempt}`, {
        ...ref,
        model,
        goal: spec.goal,
        worktreePath: claim.worktreePath,
        baseSha: claim.baseSha,
        allowedPaths: spec.allowedPaths,
        allowTestEdits: spec.allowTestEdits,
        secretEnvNames: spec.secretEnvNames,
        // The test node took the change as a tree before the tests ran: the review, the judge and the commit read
        // that tree by id, not what the test run may have written into the worktree since (undefined in histories
        // recorded before snapshots: the review takes the change itself).
        snapshot: tested.value.snapshot,
      })
      .catch(keepVerdictSpending(record, 'reviewer', run));
    record.review = review;
    return verdictOutcome('ReviewFinding', review);
  });
  if (!reviewed.ok) {
    run.emit('REVIEW_FAILED', { findings: record.review?.findings ?? [] });
    return { kind: 'failed', ...reviewed };
  }

  await checkpoint(run, 'judge');
  const judged = await runNode(context, 'judge', async () => {
    const model = run.verdictModel('judge');
    const exhausted = model && run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    const judgment = await host
      .judgeChange(`judge, attempt ${ref.attempt}`, {
        ...ref,
        tests: tested.value,
        review: reviewed.value,
        acceptanceTests: spec.acceptanceTests,
        goal: spec.goal,
        diffPath: reviewed.value.diff?.path,
        model,
        secretEnvNames: spec.secretEnvNames,
      })
      .catch(keepVerdictSpending(record, 'judge', run));
    record.judge = judgment;
    return verdictOutcome('JudgeFinding', judgment);
  });
  if (!judged.ok) return { kind: 'failed', ...judged };

  await checkpoint(run, 'commit');
  const committed = await runNode(context, 'commit', async () => {
    // The commit activity removes the worktree it committed (the attempt's removal then has nothing to do).
    const commit = await host.commitWorktree(`commit, attempt ${ref.attempt}`, {
      ...ref,
      worktreePath: claim.worktreePath,
      branch: claim.branch,
      message: commitMessage({ ...ref, goal: spec.goal, summary: record.coder?.summary }),
      // The tree the review read: committed byte for byte.
      treeSha: reviewed.value.treeSha,
      secretEnvNames: spec.secretEnvNames,
      removeWorktree: { repoPath: spec.repo },
    });
    return passed({ ...commit, agentVersions: agentVersionsOf(record) });
  });
  if (!committed.ok) return { kind: 'failed', ...committed };
  const { worktreeRemoved, ...commit } = committed.value;
  run.emit('COMMIT_CREATED', { sha: commit.sha, branch: commit.branch, created: commit.created });
  return { kind: 'passed', commit, worktreeRemoved: worktreeRemoved === true };
}
