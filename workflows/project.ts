// The project workflow, the durable claimer: starts a child task workflow for each task whose dependencies have
// completed, at most `concurrency` at a time, skips dependants of failed tasks, and ends with a report once
// nothing more can run. Every decision is domain nextActions over the task records; this file only acts on it.
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { validatePlanGraph, type ProjectPlan } from '../domain/project/plan.js';
import { buildProjectReport, type ProjectReport } from '../domain/project/project-report.js';
import {
  createProjectState,
  describeProgress,
  findTask,
  readCarriedState,
  scheduledRunId,
  type CarriedProjectState,
  type ProjectState,
} from '../domain/project/project-state.js';
import { nextActions } from '../domain/project/scheduling.js';
import { markNotRun } from '../domain/project/task-record-updates.js';
import { ProjectChildren } from './project/children.js';
import { registerProjectHandlers } from './project/handlers.js';
import { ProjectKey } from './search-attributes.js';

export interface ProjectWorkflowInput {
  plan: ProjectPlan;
  /**
   * The whole state of the previous run (continue-as-new); when set, `plan.tasks` is not read. A run of taskloop 0.1
   * carried each record's status as `state`: read both.
   */
  carried?: CarriedProjectState;
  /** Continue as new once this many child runs have ended in one run (default 100), or when Temporal suggests it. */
  continueAsNewAfter?: number;
}

const DEFAULT_CONTINUE_AS_NEW_AFTER = 100;

export async function projectWorkflow(input: ProjectWorkflowInput): Promise<ProjectReport> {
  const state = input.carried ? readCarriedState(input.carried) : createCheckedState(input.plan);
  const rotateAfter = input.continueAsNewAfter ?? DEFAULT_CONTINUE_AS_NEW_AFTER;
  let changed = true;
  const wake = (): void => {
    changed = true;
  };
  const children = new ProjectChildren(state, wake);
  registerProjectHandlers(state, children, wake);
  upsertSearchAttributes([{ key: ProjectKey, value: state.project }]);

  for (;;) {
    await condition(() => changed);
    changed = false;
    const now = new Date().toISOString();
    if (state.cancelRequested) cancelPendingTasks(state, now);
    // Continue-as-new only with no child running, so no child outlives the run that awaits its result:
    // when it is due, start nothing new and let the running children finish first.
    const rotate = children.endedInRun >= rotateAfter || workflowInfo().continueAsNewSuggested;
    const hold = state.paused || state.cancelRequested || rotate;
    const actions = nextActions({ tasks: state.tasks, concurrency: state.concurrency, paused: hold });
    for (const { id, reason } of actions.skip) markNotRun(findTask(state, id), 'SKIPPED', reason, now);
    for (const id of actions.start) children.start(findTask(state, id));
    setCurrentDetails(describeProgress(state));
    // A paused project stays open even with nothing left to run, so tasks can still be added or retried.
    if (actions.done && (!state.paused || state.cancelRequested)) break;
    if (rotate && children.running === 0) await continueWithState(input, state);
  }

  state.finished = true;
  setCurrentDetails(describeProgress(state));
  await condition(allHandlersFinished);
  return buildProjectReport(state);
}

/** The plan is validated by the client; a plan sent by other means is checked here rather than half run. */
function createCheckedState(plan: ProjectPlan): ProjectState {
  const graph = validatePlanGraph(
    plan.tasks.map((task) => ({ id: task.spec.id, dependsOn: task.dependsOn })),
    { container: 'the plan' },
  );
  if (!graph.success) {
    const problems = graph.errors.map((error) => error.message).join('; ');
    throw ApplicationFailure.nonRetryable(`plan of project ${plan.project} is invalid: ${problems}`, 'InvalidPlan');
  }
  return createProjectState(plan, scheduledRunId(workflowInfo().workflowId, plan.project));
}

function cancelPendingTasks(state: ProjectState, now: string): void {
  for (const task of state.tasks) {
    if (task.status === 'PENDING')
      markNotRun(task, 'CANCELLED', `project cancelled before it started: ${state.cancelReason ?? 'cancelled'}`, now);
  }
}

/** Carries every task record into a fresh run; the plan's tasks travel once, inside the state. */
async function continueWithState(input: ProjectWorkflowInput, state: ProjectState): Promise<never> {
  await condition(allHandlersFinished);
  return continueAsNew<typeof projectWorkflow>({
    plan: { ...input.plan, tasks: [], milestones: [] },
    carried: { ...state, continuedAsNew: state.continuedAsNew + 1 },
    ...(input.continueAsNewAfter === undefined ? {} : { continueAsNewAfter: input.continueAsNewAfter }),
  });
}
