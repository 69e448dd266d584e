// The nodes of an attempt as workflows started before each node was one activity ran them (no patch marker
// NODE_PER_ACTIVITY_PATCH in their history): the coder activity ran the test node too, and the test activity the
// review's rules, the rule judge and the commit, so a recorded result may carry the next nodes' results. Replay of
// those histories takes this path, as they ran; a run that goes on live after the replay gets plain results from
// today's activities and schedules each node's activity here. Remove once no such run is open (deprecatePatch first).
import { findMissingCapability } from '../../domain/capabilities.js';
import { commitMessage } from '../../domain/commit-message.js';
import { judgeAttempt } from '../../domain/judge.js';
import type {
  CoderResult,
  CommitResult,
  JudgeResult,
  ReviewResult,
  TaskNode,
  TestRunResult,
} from '../../domain/records.js';
import { causeOfCoderResult, causeOfFindings, causeOfTestResult } from '../../domain/node-causes.js';
import { agentVersionsOf, summarizeAttempt } from '../../domain/task-state.js';
import type { Claim, CommitAndRemoveResult } from '../../activities/index.js';
import { keepCoderSpending } from './coder-spending.js';
import { keepVerdictSpending } from './verdict-spending.js';
import { chooseAttemptAdaptations } from './learning.js';
import type { HostActivities } from './proxies.js';
import type { AttemptResult } from './run-attempt.js';
import { coderInputOf, testInputOf } from './run-nodes.js';
import {
  checkpoint,
  failed,
  passed,
  runNode,
  type AttemptContext,
  verdictOutcome,
  type NodeOutcome,
} from './run-node.js';

/** A test node's result as such histories recorded it: the review, judge and commit the test activity ran too. */
type RecordedTestResult = TestRunResult & {
  review?: ReviewResult;
  judge?: JudgeResult;
  commit?: CommitAndRemoveResult;
};
/** A coder's result as such histories recorded it: the test node's when the coder activity ran it too. */
type RecordedCoderResult = CoderResult & { tested?: RecordedTestResult; testsStartedAt?: number };

export async function runNodesBeforeSplit(
  context: AttemptContext,
  claim: Claim,
  host: HostActivities,
): Promise<AttemptResult> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  const ref = { workflowId: run.state.workflowId, attempt: record.attempt };
  const previousAttempts = run.state.attempts.slice(0, -1).map(summarizeAttempt);

  const reviewerModel = run.verdictModel('reviewer');
  // The test node's result when the coder activity ran it too; without it the test activity is scheduled.
  let withCoder: Pick<RecordedCoderResult, 'tested' | 'testsStartedAt'> = {};

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
    const { tested, testsStartedAt, ...coder }: RecordedCoderResult = await host
      .runCoder(`coder, then pytest, attempt ${ref.attempt}`, coderInputOf(run, claim, previousAttempts))
      .catch(keepCoderSpending(record, run));
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
  const takeTested = ({ review, judge, commit, ...test }: RecordedTestResult): NodeOutcome<TestRunResult> => {
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
    return host.runTests(`pytest, attempt ${ref.attempt}`, { ...ref, ...testInputOf(run, claim) }).then(takeTested);
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
