// One change through the queue: merge onto the target's current head, the task's tests on the merged tree, a
// compare-and-swap of the target; merged and tested again while the target moves under it. Each step is an
// idempotent activity on the host that holds the repository (the task's host, any host once that one is lost).
import { ActivityFailure, ApplicationFailure, TimeoutFailure, workflowInfo } from '@temporalio/workflow';
import {
  summarizeLandingTests,
  type LandingOutcome,
  type LandingRequest,
  type LandingTestSummary,
} from '../../domain/landing.js';
import { landingActivities } from './proxies.js';

type Step = 'merge' | 'test' | 'land';

/** How often a target may move under one change before the queue gives up on it for now (a busy branch). */
const MAX_REMERGES = 20;

/**
 * Lands one change. `onStep` is told each step before it runs and answers why the change was withdrawn, if its task
 * withdrew it meanwhile: then nothing more of it runs, and above all no ref update (its answer: `withdrawn`).
 */
export async function landOne(
  request: LandingRequest,
  onStep: (step: Step) => string | undefined,
): Promise<LandingOutcome> {
  const target = request.target;
  const onHost = new HostSteps(request);
  let tests: LandingTestSummary | undefined;
  const withdrawn = (step: Step): LandingOutcome | undefined => {
    const reason = onStep(step);
    return reason === undefined ? undefined : { status: 'withdrawn', target, reason: `${reason}, before its ${step}` };
  };
  for (let remerges = 0; remerges <= MAX_REMERGES; remerges += 1) {
    const beforeMerge = withdrawn('merge');
    if (beforeMerge) return beforeMerge;
    const found = await onHost.run((steps) => steps.mergeChange({ ...request, date: request.queuedAt }));
    if (found.kind === 'already_landed')
      return {
        status: 'landed',
        target,
        onto: found.targetHead,
        landed: found.targetHead,
        fastForward: false,
        remerges,
      };
    if (found.kind === 'conflict')
      return {
        status: 'sent_back',
        target,
        onto: found.targetHead,
        cause: 'MergeConflict',
        reason: `it conflicts with ${target} at ${found.targetHead.slice(0, 12)} in ${found.conflict.files.join(', ') || 'the tree'}`,
        conflict: found.conflict,
      };
    const beforeTest = withdrawn('test');
    if (beforeTest) return beforeTest;
    const run = await onHost.run((steps) => steps.testMergedTree({ ...request, tree: found.tree }));
    tests = summarizeLandingTests(run, found.tree);
    if (run.outcome !== 'passed')
      return {
        status: 'sent_back',
        target,
        onto: found.targetHead,
        cause: 'FailsOnMergedTree',
        reason: `the tests ${run.outcome === 'failed' ? 'fail' : 'could not run'} on the change merged onto ${target} at ${found.targetHead.slice(0, 12)}${run.reason ? ` (${run.reason})` : ''}`,
        tests,
      };
    const beforeLand = withdrawn('land');
    if (beforeLand) return beforeLand;
    const landed = await onHost.run((steps) =>
      steps.landChange({ ...request, merged: found.merged, expectedHead: found.targetHead }),
    );
    if (landed.kind === 'landed')
      return {
        status: 'landed',
        target,
        onto: found.targetHead,
        landed: landed.landed,
        fastForward: found.fastForward,
        tests,
        remerges,
      };
  }
  return {
    status: 'refused',
    target,
    reason: `${target} moved ${MAX_REMERGES} times while this change was merged and tested: queue it again when the branch is quieter`,
  };
}

/** The request's host runs the steps; once it is lost (a step not picked up in time), the shared queue's workers do. */
class HostSteps {
  private queue: string;
  constructor(private readonly request: LandingRequest) {
    this.queue = request.hostQueue;
  }

  async run<T>(step: (steps: ReturnType<typeof landingActivities>) => Promise<T>): Promise<T> {
    try {
      return await step(landingActivities(this.queue, this.request.tests.timeoutMs));
    } catch (error) {
      if (this.queue === workflowInfo().taskQueue || !isHostLost(error)) throw error;
      this.queue = workflowInfo().taskQueue;
      return step(landingActivities(this.queue, this.request.tests.timeoutMs));
    }
  }
}

function isHostLost(error: unknown): boolean {
  return (
    error instanceof ActivityFailure &&
    error.cause instanceof TimeoutFailure &&
    String(error.cause.timeoutType) === 'SCHEDULE_TO_START'
  );
}

/**
 * A step that failed for good ends the change's landing as refused, with why: a refusal's own words (LandingRefused:
 * a dirty checkout, a protected branch), else the failure's. The queue goes on with the next change.
 */
export function refusalReason(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (cause instanceof ApplicationFailure && cause.type === 'LandingRefused') return cause.message;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return `the landing failed: ${message}`;
}
