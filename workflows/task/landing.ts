// The task's landing (a task with `landOn`): after its change passed and was committed (and approved, where approval
// is required), the change is queued on the target branch's lander (workflows/land) and the task waits, durably and
// without a worker slot, for the lander's answer: landed, sent back (the next attempt starts on the target's new head
// with the evidence), or refused.
import {
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  patched,
  setHandler,
} from '@temporalio/workflow';
import { sentBackEvidence, type LandingOutcome, type LandingRequest } from '../../domain/landing.js';
import type { CommitResult } from '../../domain/records.js';
import type { FailureClass } from '../../domain/failure-class.js';
import { landingResultSignal, withdrawSignal } from '../land/messages.js';
import { enqueueLanding } from '../land/proxies.js';
import { hostTaskQueue } from '../task-queues.js';
import type { PassedOnHost } from './run-node.js';
import type { TaskRun } from './task-run.js';

/**
 * The patch after which a task cancelled while its change is queued withdraws it from the queue (and waits for the
 * queue's word) instead of leaving it there to land. Asked where the cancel is taken, as the first command of it.
 */
export const WITHDRAW_ON_CANCEL_PATCH = 'landing-withdrawn-on-cancel';

/** How long past the test timeout a cancelled task waits for the queue's word on its withdrawn change. */
const WITHDRAW_WAIT_MARGIN_MS = 5 * 60_000;

/**
 * Queues the passed change on its target's lander and waits for the answer. A cancel withdraws the change: the
 * answer is then `withdrawn` (or `landed`, when its ref update had begun), or undefined when the queue said nothing.
 */
export async function landPassedChange(
  run: TaskRun,
  commit: CommitResult,
  host: PassedOnHost | undefined,
): Promise<LandingOutcome | undefined> {
  const { spec } = run;
  const target = spec.landOn!;
  let answer: LandingOutcome | undefined;
  setHandler(landingResultSignal, (result) => {
    if (result.sha === commit.sha) answer = result.outcome;
  });
  const queuedAt = new Date().toISOString();
  const request: LandingRequest = {
    taskWorkflowId: run.state.workflowId,
    taskId: spec.id,
    repo: spec.repo,
    target,
    sha: commit.sha,
    branch: commit.branch,
    hostQueue: host?.hostQueue ?? hostTaskQueue(run.currentAttempt.hostId ?? ''),
    tests: {
      command: spec.testCommand,
      testEnv: spec.testEnv,
      timeoutMs: spec.testTimeoutMs,
      secretEnvNames: spec.secretEnvNames,
      sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
      ...(host?.environment ? { environment: host.environment } : {}),
    },
    queuedAt,
  };
  // Not cut short by a cancel request: a change queued by an enqueue whose result was lost could not be withdrawn.
  const { landerId } = await CancellationScope.nonCancellable(() => enqueueLanding(request));
  run.state.landing = { status: 'queued', target, sha: commit.sha, queuedAt, lander: landerId };
  run.setPhase('waiting');
  await run.flush();
  await condition(() => answer !== undefined || run.cancelRequested).catch((error: unknown) => {
    if (!isCancellation(error)) throw error;
    run.cancelRequested = true;
    run.cancelReason ??= 'cancelled by a workflow cancel request';
  });
  if (!answer && run.cancelRequested && patched(WITHDRAW_ON_CANCEL_PATCH))
    await CancellationScope.nonCancellable(() => withdraw(run, request, landerId, () => answer !== undefined));
  if (!answer) return undefined;
  run.state.landing = { ...answer, sha: commit.sha, queuedAt, answeredAt: new Date().toISOString() };
  recordAnswer(run, answer);
  return answer;
}

/** Asks the lander to withdraw the change and waits, bounded, for its word (landed, when it came too late). */
async function withdraw(run: TaskRun, request: LandingRequest, landerId: string, answered: () => boolean) {
  try {
    await getExternalWorkflowHandle(landerId).signal(withdrawSignal, {
      taskWorkflowId: request.taskWorkflowId,
      sha: request.sha,
      reason: `task ${request.taskId} was cancelled (${run.cancelReason ?? 'cancelled'})`,
    });
  } catch (error) {
    // No lander runs (terminated): nothing will land the change.
    log.warn('the landing queue is gone: nothing to withdraw the change from', {
      lander: landerId,
      error: String(error),
    });
    return;
  }
  await condition(answered, request.tests.timeoutMs + WITHDRAW_WAIT_MARGIN_MS);
}

/** The answer in the task's events and attempt record; a change sent back starts the next attempt on `onto`. */
function recordAnswer(run: TaskRun, answer: LandingOutcome): void {
  if (answer.status === 'landed') {
    run.emit('CHANGE_LANDED', { target: answer.target, landed: answer.landed, onto: answer.onto });
    return;
  }
  if (answer.status === 'sent_back') {
    run.currentAttempt.landing = run.state.landing;
    run.emit('LANDING_SENT_BACK', { target: answer.target, cause: answer.cause, onto: answer.onto });
    run.pendingHint = sentBackEvidence(answer);
    run.baseOverride = answer.onto;
  }
}

/** The class a task that could not land ends with. */
export function landingFailureClass(outcome: LandingOutcome): FailureClass {
  return outcome.status === 'sent_back' ? 'merge_conflict' : 'environment_problem';
}

/** Why a task that could not land ended so, in one line. */
export function landingFailureReason(outcome: LandingOutcome): string {
  if (outcome.status === 'landed') return '';
  const why = outcome.status === 'sent_back' ? `sent back: ${outcome.reason}` : `refused: ${outcome.reason}`;
  return `the change could not land on ${outcome.target}: ${why}`;
}
