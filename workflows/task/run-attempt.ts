// One attempt of the task graph: claim -> code -> test -> review -> judge -> commit. Each node is one pure decision on
// what its work returned; nodes share an activity where no boundary is needed between them (docs/architecture.md,
// *Nodes are not activities one to one*). The worktree is removed whatever happens.
import { CancellationScope, log } from '@temporalio/workflow';
import { findMissingCapability } from '../../domain/capabilities.js';
import { commitMessage } from '../../domain/commit-message.js';
import { judgeAttempt } from '../../domain/judge.js';
import type { CommitResult, JudgeResult, ReviewResult, TaskNode, TestRunResult } from '../../domain/records.js';
import { causeOfCoderResult, causeOfFindings, causeOfTestResult } from '../../domain/node-causes.js';
import { agentVersionsOf, summarizeAttempt, type AttemptFailure } from '../../domain/task-state.js';
import type { Claim, CommitAndRemoveResult, TestAndReviewResult, TestedWithCoder } from '../../activities/index.js';
import { coderSpendingOf } from './coder-spending.js';
import { chooseAttemptAdaptations } from './learning.js';
import { claimWorktree, hostActivities, type HostActivities } from './proxies.js';
import { testNodeOf } from './test-node.js';
import { keepVerdictSpending } from './verdict-spending.js';
import {
  checkpoint,
  failed,
  passed,
  runNode,
  type AttemptContext,
  verdictOutcome,
  type FinalDecision,
  type NodeOutcome,
} from './run-node.js';

export type AttemptResult =
  | { kind: 'passed'; commit: CommitResult; worktreeRemoved?: boolean }
  | { kind: 'failed'; failure: AttemptFailure; decision: FinalDecision };

export async function runAttempt(context: AttemptContext): Promise<AttemptResult> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  const ref = { workflowId: run.state.workflowId, attempt: record.attempt };

  await checkpoint(run, 'claim');
  const claimed = await runNode(context, 'claim', async () => {
    run.flushSearchAttributes();
    return passed(
      await claimWorktree(`worktree, attempt ${ref.attempt}`, {
        ...ref,
        taskId: spec.id,
        repoPath: spec.repo,
        baseRef: spec.baseRef,
        coderVersion: spec.agents?.coder,
        historyOf: spec.project,
      }),
    );
  });
  if (!claimed.ok) return { kind: 'failed', ...claimed };
  const claim = claimed.value;
  record.hostId = claim.hostId;
  if (claim.historyError)
    log.warn('could not read the project history; adapting from this task alone', { error: claim.historyError });
  // The spec carries the timeouts the host's activities take (test, host lost, heartbeat).
  const host = hostActivities(claim.hostQueue, spec, () => run.flushSearchAttributes());
  let result: AttemptResult | undefined;
  try {
    result = await runNodes(context, claim, host);
    return result;
  } finally {
    // A commit that removed its worktree leaves nothing to clean: no scope (each costs the SDK's promise tracking).
    if (!(result?.kind === 'passed' && result.worktreeRemoved)) {
      await CancellationScope.nonCancellable(async () => {
        // A lost host cannot remove its worktree: the next claim in the repository prunes it, so the attempt moves on at once.
        if (result?.kind === 'failed' && result.decision.kind === 'reclaim') {
          log.warn('host lost: its worktree stays registered until the next claim prunes it', {
            hostId: claim.hostId,
            path: claim.worktreePath,
          });
          return;
        }
        try {
          const removed = await host.removeWorktree(`remove worktree, attempt ${ref.attempt}`, {
            repoPath: spec.repo,
            worktreePath: claim.worktreePath,
          });
          if (!removed.wasClean) log.info('worktree had uncommitted changes when removed', { attempt: ref.attempt });
        } catch (error) {
          log.warn('could not remove the worktree; it stays on the host until pruned', {
            error: String(error),
            path: claim.worktreePath,
          });
        }
      });
    }
  }
}

async function runNodes(context: AttemptContext, claim: Claim, host: HostActivities): Promise<AttemptResult> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  const ref = { workflowId: run.state.workflowId, attempt: record.attempt };
  const previousAttempts = run.state.attempts.slice(0, -1).map(summarizeAttempt);

  const reviewerModel = run.verdictModel('reviewer');
  const testNode = testNodeOf(run, claim);
  // The test node's result when the coder activity ran it too (CoderInput.thenTests). No patch marker is needed
  // either: a recorded coder result without `tested` (a history from before, a pause requested during the coder, a
  // worker that does not know thenTests) takes the path that schedules the test activity, as the history did.
  let withCoder: Partial<TestedWithCoder> = {};
  // A re-run of the code node finds the worktree as the earlier run left it.
  let coderRuns = 0;

  await checkpoint(run, 'code');
  record.adaptations = chooseAttemptAdaptations(run, claim.history);
  const coded = await runNode(context, 'code', async () => {
    const exhausted = run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    // A coder version that cannot do what the task needs fails before any model call (cause CapabilityMissing).
    const missing =
      claim.coderAgent &&
      findMissingCapability({
        role: 'coder',
        version: claim.coderAgent.version,
        granted: claim.coderAgent.capabilities,
      });
    if (missing) return failed(missing);
    record.coderModel = spec.models.coder;
    coderRuns += 1;
    const { tested, testsStartedAt, ...coder } = await host
      .runCoder(`coder, then pytest, attempt ${ref.attempt}`, {
        ...ref,
        worktreePath: claim.worktreePath,
        untouchedWorktree: coderRuns === 1,
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
        tests: { command: spec.testCommand, testEnv: spec.testEnv, timeoutMs: spec.testTimeoutMs },
        sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
        thenTests: testNode,
      })
      .catch((error: unknown) => {
        // A coder run that failed still spent model requests and tokens: counted in telemetry and budgets.
        const spent = coderSpendingOf(error);
        if (spent) {
          record.coderSpent = spent;
          run.refreshTelemetry();
        }
        throw error;
      });
    record.coder = coder;
    withCoder = { tested, testsStartedAt };
    run.state.turnsConsumed += coder.turnsConsumed;
    run.refreshTelemetry();
    return coder.status === 'finished' ? passed(coder) : failed(causeOfCoderResult(coder));
  });
  if (!coded.ok) return { kind: 'failed', ...coded };

  // Tested with the coder: the activity found no pause requested before it ran the tests, so there is no boundary
  // left to hold at (a pause sent during the tests holds at the next one). The phase began when they started (a long
  // run announced it already).
  if (withCoder.tested) run.setPhase('test', withCoder.testsStartedAt);
  else await checkpoint(run, 'test');
  let ruleReview: ReviewResult | undefined;
  let ruleJudge: JudgeResult | undefined;
  let madeCommit: CommitAndRemoveResult | undefined;
  // The test node's result records what its activity did: the review's rules, the judge's and the commit, too.
  const takeTested = ({ review, judge, commit, ...test }: TestAndReviewResult): NodeOutcome<TestRunResult> => {
    record.test = test;
    ruleReview = review;
    ruleJudge = judge;
    madeCommit = commit;
    // A change the review's path rules refuse never ran: the review node below records the refusal.
    return test.outcome === 'passed' || test.refused ? passed(test) : failed(causeOfTestResult(test));
  };
  const tested = await runNode(context, 'test', () => {
    // Taken once: a re-run of the node (an environment problem in that run) schedules the test activity.
    const { tested: testedHere } = withCoder;
    withCoder = {};
    if (testedHere) return takeTested(testedHere);
    return host
      .runTests(`pytest, attempt ${ref.attempt}`, {
        ...ref,
        ...testNode,
        worktreePath: claim.worktreePath,
        commit: testNode.commit && {
          ...testNode.commit,
          message: commitMessage({ ...ref, goal: spec.goal, summary: record.coder?.summary }),
        },
      })
      .then(takeTested);
  });
  if (!tested.ok) {
    run.emit('TEST_FAILED', { counts: record.test?.counts, reason: tested.failure.reason });
    return { kind: 'failed', ...tested };
  }
  // Committed with the tests: the review, judge and commit nodes only record what the activity did, so there is no
  // boundary left for a pause to hold (a pause sent during the tests finds the attempt done).
  const reachNode = (node: TaskNode) => (madeCommit ? run.setPhase(node) : checkpoint(run, node));

  await reachNode('review');
  const takeReview = (review: ReviewResult) => {
    record.review = review;
    return verdictOutcome('ReviewFinding', review);
  };
  const reviewed = await runNode(context, 'review', () => {
    const refused = tested.value.refused;
    if (refused) {
      record.review = {
        passed: false,
        findings: refused,
        changedFiles: [],
        diffStat: { files: 0, insertions: 0, deletions: 0 },
      };
      return failed(causeOfFindings('ReviewFinding', refused));
    }
    const exhausted = reviewerModel && run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    if (ruleReview) return takeReview(ruleReview);
    return host
      .reviewChanges(`review, attempt ${ref.attempt}`, {
        model: reviewerModel,
        goal: spec.goal,
        ...ref,
        worktreePath: claim.worktreePath,
        baseSha: claim.baseSha,
        allowedPaths: spec.allowedPaths,
        allowTestEdits: spec.allowTestEdits,
        secretEnvNames: spec.secretEnvNames,
      })
      .then(takeReview, keepVerdictSpending(record, 'reviewer', run));
  });
  if (!reviewed.ok) {
    run.emit('REVIEW_FAILED', { findings: record.review?.findings ?? [] });
    return { kind: 'failed', ...reviewed };
  }

  await reachNode('judge');
  const takeJudgment = (judgment: JudgeResult) => {
    record.judge = judgment;
    return verdictOutcome('JudgeFinding', judgment);
  };
  const judged = await runNode(context, 'judge', () => {
    // The test activity's verdict when it judged (and perhaps committed): the same rules, and the one that acted.
    const byRules =
      ruleJudge ?? judgeAttempt({ tests: tested.value, review: reviewed.value, acceptanceTests: spec.acceptanceTests });
    record.judge = byRules;
    const judgeModel = run.verdictModel('judge');
    if (!judgeModel) return takeJudgment(byRules);
    const exhausted = run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    const test = { counts: tested.value.counts, stdoutExcerpt: tested.value.stdoutExcerpt };
    const { secretEnvNames, goal } = spec;
    const input = {
      ...ref,
      judge: byRules,
      goal,
      test,
      diffPath: reviewed.value.diff?.path,
      model: judgeModel,
      secretEnvNames,
    };
    const keep = keepVerdictSpending(record, 'judge', run);
    return host.judgeWithModel(`judge model, attempt ${ref.attempt}`, input).then(takeJudgment, keep);
  });
  if (!judged.ok) return { kind: 'failed', ...judged };

  await reachNode('commit');
  let removed = false;
  const takeCommit = ({ worktreeRemoved, ...commit }: CommitAndRemoveResult): NodeOutcome<CommitResult> => {
    removed = worktreeRemoved === true;
    return passed({ ...commit, agentVersions: agentVersionsOf(record) });
  };
  const committed = await runNode(context, 'commit', () => {
    if (madeCommit) return takeCommit(madeCommit);
    // A worker that does not know TestInput.commit ran the tests only: the commit activity makes the commit.
    return host
      .commitWorktree(`commit, attempt ${ref.attempt}`, {
        ...ref,
        worktreePath: claim.worktreePath,
        branch: claim.branch,
        message: commitMessage({ ...ref, goal: spec.goal, summary: record.coder?.summary }),
        staged: true,
        secretEnvNames: spec.secretEnvNames,
        // The commit activity removes the worktree it committed (the removal below then has nothing to do).
        removeWorktree: { repoPath: spec.repo },
      })
      .then(takeCommit);
  });
  if (!committed.ok) return { kind: 'failed', ...committed };
  run.emit('COMMIT_CREATED', {
    sha: committed.value.sha,
    branch: committed.value.branch,
    created: committed.value.created,
  });
  return { kind: 'passed', commit: committed.value, worktreeRemoved: removed };
}
