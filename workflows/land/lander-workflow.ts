// The landing queue of one (repository, target branch): a long-lived workflow fed changes by signal-with-start. It
// takes them in order; for each it merges the change onto the target's current head in the object store, runs the
// task's tests on the merged tree in the sandbox, and lands the tested merge with a compare-and-swap (a push with
// lease for a URL). A target that moved meanwhile is merged and tested again; a conflict or a failure on the merged
// tree goes back to the task. It continues as new with its queue carried, so its history stays small.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { enqueueLanding, type LandingOutcome, type LandingRequest } from '../../domain/landing.js';
import {
  enqueueSignal,
  landerStateQuery,
  landingResultSignal,
  withdrawSignal,
  type LanderCounts,
  type LanderInput,
  type LanderView,
} from './messages.js';
import { landOne, refusalReason } from './land-one.js';

export type { LanderCounts, LanderInput } from './messages.js';

const DEFAULT_CONTINUE_AS_NEW_AFTER = 50;

export async function landerWorkflow(input: LanderInput): Promise<void> {
  const queue: LandingRequest[] = [...(input.carried?.queue ?? [])];
  const counts: LanderCounts = input.carried?.counts ?? { landed: 0, sentBack: 0, refused: 0, continuedAsNew: 0 };
  const view: Pick<LanderView, 'current'> = {};
  const rotateAfter = input.continueAsNewAfter ?? DEFAULT_CONTINUE_AS_NEW_AFTER;
  let handled = 0;
  // The change in hand, and whether its task withdrew it meanwhile (checked before each of its steps).
  let inHand: { request: LandingRequest; withdrawn?: string } | undefined;
  const rotate = () => handled >= rotateAfter || workflowInfo().continueAsNewSuggested;

  // The handler only queues: changes land one at a time in the loop, so two never race on the target.
  setHandler(enqueueSignal, (request) => void enqueueLanding(queue, request));
  setHandler(withdrawSignal, async ({ taskWorkflowId, sha, reason }) => {
    const at = queue.findIndex((queued) => queued.taskWorkflowId === taskWorkflowId && queued.sha === sha);
    if (at < 0) return;
    if (inHand?.request === queue[at]) {
      inHand.withdrawn = reason;
      return;
    }
    const [request] = queue.splice(at, 1);
    counts.withdrawn = (counts.withdrawn ?? 0) + 1;
    await answer(request!, { status: 'withdrawn', target: request!.target, reason: `${reason}, while it waited` });
  });
  setHandler(landerStateQuery, () => ({
    repo: input.repo,
    target: input.target,
    ...view,
    waiting: queue.map(({ taskId, sha, queuedAt }) => ({ taskId, sha, queuedAt })),
    ...counts,
  }));

  for (;;) {
    setCurrentDetails(describe(input, queue, counts));
    await condition(() => queue.length > 0 || rotate());
    if (rotate()) break;
    // The change stays first in the queue until answered: a continue-as-new never drops the one in hand.
    const request = queue[0]!;
    const hand: NonNullable<typeof inHand> = { request };
    inHand = hand;
    const outcome = await landOrRefuse(request, (step) => {
      view.current = { taskId: request.taskId, sha: request.sha, step, since: new Date().toISOString() };
      return hand.withdrawn;
    });
    await answer(request, outcome);
    queue.shift();
    inHand = undefined;
    view.current = undefined;
    handled += 1;
    count(counts, outcome);
  }

  await condition(allHandlersFinished);
  await continueAsNew<typeof landerWorkflow>({
    ...input,
    carried: { queue, counts: { ...counts, continuedAsNew: counts.continuedAsNew + 1 } },
  });
}

/** A step that failed for good (after its retries) refuses this change; it never stops the queue. */
async function landOrRefuse(request: LandingRequest, onStep: Parameters<typeof landOne>[1]): Promise<LandingOutcome> {
  try {
    return await landOne(request, onStep);
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { status: 'refused', target: request.target, reason: refusalReason(error) };
  }
}

/** The task hears the outcome by signal; a task that is gone (terminated) has no one to tell, which is logged. */
async function answer(request: LandingRequest, outcome: LandingOutcome): Promise<void> {
  try {
    await getExternalWorkflowHandle(request.taskWorkflowId).signal(landingResultSignal, { sha: request.sha, outcome });
  } catch (error) {
    log.warn('the task that queued this change is gone; its outcome is kept in the lander history only', {
      task: request.taskWorkflowId,
      outcome: outcome.status,
      error: String(error),
    });
  }
}

function count(counts: LanderCounts, outcome: LandingOutcome): void {
  if (outcome.status === 'landed') counts.landed += 1;
  else if (outcome.status === 'sent_back') counts.sentBack += 1;
  else if (outcome.status === 'withdrawn') counts.withdrawn = (counts.withdrawn ?? 0) + 1;
  else counts.refused += 1;
}

function describe(input: LanderInput, queue: LandingRequest[], counts: LanderCounts): string {
  return `Landing on ${input.target}: ${queue.length} waiting, ${counts.landed} landed, ${counts.sentBack} sent back, ${counts.refused} refused`;
}
