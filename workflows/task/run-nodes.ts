// The nodes of one attempt after its claim: code -> test -> review -> judge -> commit. Each node is one activity whose
// result the workflow reads, and one pure decision on it; pause and cancel are honoured at the checkpoint before each.
import { roundStartOf } from '../../domain/approval.js';
import { findMissingCapability } from '../../domain/capabilities.js';
import { commitMessage } from '../../domain/commit-message.js';
import { causeOfCoderResult, causeOfRefusal, causeOfTestResult } from '../../domain/node-causes.js';
import { agentVersionsOf, summarizeAttempt } from '../../domain/task-state.js';
import type { AttemptRef, Claim } from '../../activities/index.js';
import { judgeAttempt, withModelVerdict } from '../../domain/judge.js';
import type { CoderResult, JudgeResult, ModelVerdict, ReviewResult, TestRunResult } from '../../domain/records.js';
import type { VerdictModelChoice } from '../../activities/task-activities.js';
import { keepCoderSpending } from './coder-spending.js';
import { keepVerdictSpending } from './verdict-spending.js';
import { chooseAttemptAdaptations } from './learning.js';
import { coderInputOf, testInputOf } from './node-inputs.js';
import type { HostActivities } from './proxies.js';
import {
  candidateLabel,
  checkpoint,
  failed,
  passed,
  runNode,
  verdictOutcome,
  type AttemptContext,
  type AttemptResult,
  type NodeResult,
} from './run-node.js';

/** What every node of one attempt shares: the run, the claim it works in, the host's activities, its reference. */
interface AttemptNodes {
  context: AttemptContext;
  claim: Claim;
  host: HostActivities;
  ref: AttemptRef;
}

export async function runNodes(
  context: AttemptContext,
  claim: Claim,
  host: HostActivities,
  ref: AttemptRef,
): Promise<AttemptResult> {
  const nodes: AttemptNodes = { context, claim, host, ref };
  const coded = await codeNode(nodes);
  if (!coded.ok) return { kind: 'failed', ...coded };
  const tested = await testNode(nodes);
  if (!tested.ok) return { kind: 'failed', ...tested };
  const reviewed = await reviewNode(nodes, tested.value);
  if (!reviewed.ok) return { kind: 'failed', ...reviewed };
  const judged = await judgeNode(nodes, tested.value, reviewed.value);
  if (!judged.ok) return { kind: 'failed', ...judged };
  return commitNode(nodes, reviewed.value);
}

/** The coder, after the budgets and its agent's capabilities are checked; the adaptations chosen for it first. */
async function codeNode({ context, claim, host, ref }: AttemptNodes): Promise<NodeResult<CoderResult>> {
  const { run } = context;
  const record = run.currentAttempt;
  const previousAttempts = run.state.attempts.slice(0, -1).map(summarizeAttempt);
  await checkpoint(run, 'code');
  record.adaptations = chooseAttemptAdaptations(run, claim.history);
  return runNode(context, 'code', async () => {
    const exhausted = run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    // A coder version that cannot do what the task needs fails before any model call (cause CapabilityMissing).
    const agent = claim.coderAgent;
    const missing =
      agent && findMissingCapability({ role: 'coder', version: agent.version, granted: agent.capabilities });
    if (missing) return failed(missing);
    record.coderModel = run.spec.models.coder;
    const coder = await host
      .runCoder(`coder, attempt ${ref.attempt}${candidateLabel(ref)}`, coderInputOf(run, claim, previousAttempts, ref))
      .catch(keepCoderSpending(record, run));
    record.coder = coder;
    run.state.turnsConsumed += coder.turnsConsumed;
    run.refreshTelemetry();
    return coder.status === 'finished' ? passed(coder) : failed(causeOfCoderResult(coder));
  });
}

/** The task's tests in the sandbox, the review's path rules checked first: a change they refuse fails here. */
async function testNode({ context, claim, host, ref }: AttemptNodes): Promise<NodeResult<TestRunResult>> {
  const { run } = context;
  const record = run.currentAttempt;
  await checkpoint(run, 'test');
  const tested = await runNode(context, 'test', async () => {
    const test = await host.runTests(`pytest, attempt ${ref.attempt}${candidateLabel(ref)}`, {
      ...ref,
      ...testInputOf(run, claim),
    });
    record.test = test;
    // A change the review's path rules refused never ran: it fails here with their finding. Runs started before
    // DECISIONS_IN_WORKFLOW_PATCH passed it on, and their review node found the same rules broken.
    if (test.refused && run.decidesInWorkflow) return failed(causeOfRefusal(test.refused));
    return test.outcome === 'passed' || test.refused ? passed(test) : failed(causeOfTestResult(test));
  });
  if (!tested.ok) {
    const refused = record.test?.refused;
    run.emit('TEST_FAILED', {
      counts: record.test?.counts,
      reason: tested.failure.reason,
      ...(refused && { refused }),
      ...(ref.candidate === undefined ? {} : { candidate: ref.candidate }),
    });
  }
  return tested;
}

/** The policy rules on the tree the test node took, and the reviewer model's verdict when the task names one. */
async function reviewNode(
  { context, claim, host, ref }: AttemptNodes,
  tests: TestRunResult,
): Promise<NodeResult<ReviewResult>> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  await checkpoint(run, 'review');
  const reviewed = await runNode(context, 'review', async () => {
    const model = run.verdictModel('reviewer');
    const exhausted = model && run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    const review = await host
      .reviewChanges(`review, attempt ${ref.attempt}${candidateLabel(ref)}`, {
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
        snapshot: tests.snapshot,
      })
      .catch(keepVerdictSpending(record, 'reviewer', run));
    record.review = review;
    return verdictOutcome('ReviewFinding', review);
  });
  if (!reviewed.ok) run.emit('REVIEW_FAILED', { findings: record.review?.findings ?? [] });
  return reviewed;
}

/**
 * The judge's rules (domain/judge.ts), here in the workflow, and, when the task names a judge model, the model's
 * verdict from its activity, merged in. Runs started before DECISIONS_IN_WORKFLOW_PATCH ran both in one activity.
 */
async function judgeNode(nodes: AttemptNodes, tests: TestRunResult, review: ReviewResult) {
  const { context, host, ref } = nodes;
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  await checkpoint(run, 'judge');
  return runNode(context, 'judge', async () => {
    const model = run.verdictModel('judge');
    const exhausted = model && run.exhaustedBudget();
    if (exhausted) return failed({ kind: 'BudgetExhausted', message: exhausted });
    if (!run.decidesInWorkflow) {
      const judgment = await host
        .judgeChange(`judge, attempt ${ref.attempt}${candidateLabel(ref)}`, {
          ...ref,
          tests,
          review,
          acceptanceTests: spec.acceptanceTests,
          goal: spec.goal,
          diffPath: review.diff?.path,
          model,
          secretEnvNames: spec.secretEnvNames,
        })
        .catch(keepVerdictSpending(record, 'judge', run));
      record.judge = judgment;
      return verdictOutcome('JudgeFinding', judgment);
    }
    const judgment = judgeAttempt({ tests, review, acceptanceTests: spec.acceptanceTests });
    record.judge = model
      ? withModelVerdict(judgment, await askJudgeModel(nodes, model, judgment, tests, review))
      : judgment;
    return verdictOutcome('JudgeFinding', record.judge);
  });
}

/** The judge model's verdict on the attempt, told what the rules found. */
function askJudgeModel(
  { context, host, ref }: AttemptNodes,
  model: VerdictModelChoice,
  checks: JudgeResult,
  tests: TestRunResult,
  review: ReviewResult,
): Promise<ModelVerdict> {
  const { run } = context;
  return host
    .askJudgeModel(`judge model, attempt ${ref.attempt}${candidateLabel(ref)}`, {
      ...ref,
      model,
      goal: run.spec.goal,
      checks: { evidence: checks.evidence, findings: checks.findings },
      test: { counts: tests.counts, stdoutExcerpt: tests.stdoutExcerpt },
      diffPath: review.diff?.path,
      secretEnvNames: run.spec.secretEnvNames,
    })
    .catch(keepVerdictSpending(run.currentAttempt, 'judge', run));
}

/** One commit of the reviewed tree on the run's branch; the commit activity removes the worktree it committed. */
async function commitNode({ context, claim, host, ref }: AttemptNodes, review: ReviewResult): Promise<AttemptResult> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  await checkpoint(run, 'commit');
  // A later review round's commit goes on the branch of the change it started from, moving it forward.
  const round = roundStartOf(run.state.review);
  const committed = await runNode(context, 'commit', async () => {
    const commit = await host.commitWorktree(`commit, attempt ${ref.attempt}${candidateLabel(ref)}`, {
      ...ref,
      worktreePath: claim.worktreePath,
      branch: round?.branch ?? claim.branch,
      ...(round && { advanceFrom: round.sha }),
      message: commitMessage({ ...ref, goal: spec.goal, summary: record.coder?.summary }),
      // The tree the review read: committed byte for byte.
      treeSha: review.treeSha,
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
