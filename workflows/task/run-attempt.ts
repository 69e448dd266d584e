// One attempt of the task graph: claim -> code -> test -> review -> judge -> commit, each node one activity
// (workflows/task/run-nodes.ts). The worktree is removed whatever happens. A task with `samples` draws candidates in
// turn, each in a fresh worktree, until one passes its tests (domain/samples.ts).
import { CancellationScope, log } from '@temporalio/workflow';
import { roundStartOf } from '../../domain/approval.js';
import { claimWorktree, hostActivities } from './proxies.js';
import { candidateLabel, checkpoint, passed, runNode, type AttemptContext, type AttemptResult } from './run-node.js';
import { runNodes } from './run-nodes.js';
import { testEnvironmentOf } from './node-inputs.js';
import { prepareEnvironment } from './environment-step.js';
import { drawsAnotherCandidate, setAsideCandidate } from '../../domain/samples.js';

export async function runAttempt(context: AttemptContext): Promise<AttemptResult> {
  const { run } = context;
  for (;;) {
    const record = run.currentAttempt;
    const candidate = record.candidate ?? 1;
    const result = await runCandidate(context, candidate);
    if (result.kind === 'passed' || !result.retry) return result;
    const another = drawsAnotherCandidate({
      failure: result.failure,
      retry: result.retry,
      candidate,
      samples: run.spec.samples,
    });
    if (!another) return result;
    log.info('candidate set aside: drawing another', {
      attempt: record.attempt,
      candidate,
      reason: result.failure.reason,
    });
    setAsideCandidate(record, result.failure, new Date().toISOString());
  }
}

/** One candidate of the attempt (the attempt itself when the task draws no samples): claim, nodes, worktree removed. */
async function runCandidate(context: AttemptContext, candidate: number): Promise<AttemptResult> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  // The first candidate's ref is the attempt's own: a task without samples sends what it always sent.
  const ref = { workflowId: run.state.workflowId, attempt: record.attempt, ...(candidate > 1 ? { candidate } : {}) };

  await checkpoint(run, 'claim');
  const claimed = await runNode(context, 'claim', async () => {
    run.flushSearchAttributes();
    return passed(
      await claimWorktree(`worktree, attempt ${ref.attempt}${candidateLabel(ref)}`, {
        ...ref,
        taskId: spec.id,
        repoPath: spec.repo,
        // A later review round starts from the change the person read (the tip of the task's branch); a change the
        // landing queue sent back starts again on the target's new head.
        baseRef: run.baseOverride ?? roundStartOf(run.state.review)?.sha ?? spec.baseRef,
        coderVersion: spec.agents?.coder,
        historyOf: spec.project,
        goal: spec.goal,
      }),
    );
  });
  if (!claimed.ok) return { kind: 'failed', ...claimed };
  const claim = claimed.value;
  record.hostId = claim.hostId;
  record.baseSha = claim.baseSha;
  if (claim.historyError)
    log.warn('could not read the project history; adapting from this task alone', { error: claim.historyError });
  // The spec carries the timeouts the host's activities take (test, host lost, heartbeat).
  const host = hostActivities(claim.hostQueue, spec, () => run.flushSearchAttributes());
  let result: AttemptResult | undefined;
  try {
    // The repository's environment first, when the task has one (workflows/task/environment-step.ts).
    result = (spec.environment && (await prepareEnvironment(context, claim, host, spec.environment))) || undefined;
    result ??= await runNodes(context, claim, host, ref);
    if (result.kind === 'passed') {
      const environment = claim.environment && testEnvironmentOf(claim.environment);
      result = { ...result, host: { hostQueue: claim.hostQueue, ...(environment ? { environment } : {}) } };
    }
    return result as AttemptResult;
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
          const removed = await host.removeWorktree(`remove worktree, attempt ${ref.attempt}${candidateLabel(ref)}`, {
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
