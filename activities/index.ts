// The activities a taskloop worker serves, built by a factory that takes the worker's dependencies.
import { createTaskActivities, type ActivityDeps } from './task-activities.js';
import { createLearningActivities } from './learning/index.js';
import { createLandingActivities } from './land/index.js';
import { resolveWorkerSandbox } from './sandbox/index.js';
import { scrubbingResults } from './scrub-results.js';
import { createEvalActivities } from './eval/index.js';

export type {
  ActivityDeps,
  AttemptRef,
  Claim,
  ClaimInput,
  CoderInput,
  CommitAndRemoveResult,
  ReviewInput,
  JudgeInput,
  TestInput,
} from './task-activities.js';

export function createActivities(deps: ActivityDeps) {
  // Every result passes the secret scrub on its way to history (activities/scrub-results.ts).
  return scrubbingResults({
    ...createTaskActivities(deps),
    ...createLearningActivities(deps),
    ...createLandingActivities({
      ...deps,
      workerSandbox: deps.sandbox ?? resolveWorkerSandbox({ workDir: deps.workDir }),
    }),
    ...createEvalActivities(deps),
  });
}

/** The task's and learning's activities (what the task and project workflows call). */
export type TaskloopActivities = Omit<ReturnType<typeof createActivities>, keyof EvalActivities>;
/** What the eval arm workflow calls. */
export type EvalActivities = ReturnType<typeof createEvalActivities>;
