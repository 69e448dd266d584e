// The learning workflow: one per project and agent role, fed failure events by signal-with-start. It buffers
// failures, and when similar ones recur it has a skill written and clears them. It holds what the project learned
// (skills and failure history), which every host reads through the `learning` query. It runs until terminated,
// continuing as new to keep its history small.
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  setCurrentDetails,
  setHandler,
  workflowInfo,
  log,
  patched,
} from '@temporalio/workflow';
import {
  acceptFailure,
  createLearningState,
  readCarriedState,
  recordProblem,
  type LearningState,
} from '../../domain/learning/learning-state.js';
import { parseFailureEvent } from '../../domain/learning/failure-event.js';
import { learningConfigSchema } from '../../domain/learning/gate.js';
import { historyRecordOf, recordHistory } from '../../domain/learning/project-learning.js';
import {
  failureSignal,
  learningQuery,
  learningStateQuery,
  memoryQuery,
  type LearningWorkflowInput,
} from './messages.js';
import { writeReadySkills } from './write-skills.js';

/** Skills only from failures a coder can learn from (domain/learning/gate.ts). */
const LEARNABLE_FAILURES_PATCH = 'skills-from-learnable-failures-only';

export type { LearningWorkflowInput } from './messages.js';

const DEFAULT_CONTINUE_AS_NEW_AFTER = 200;

export async function learningWorkflow(input: LearningWorkflowInput): Promise<void> {
  const carried = input.carried?.state;
  const state = carried ? readCarriedState(carried) : createLearningState(input.project, input.role);
  const pending: unknown[] = [...(input.carried?.pending ?? [])];
  const learning = readLearning(input.learning);
  const writing = {
    project: input.project,
    skillWriterModel: input.skillWriterModel,
    threshold: input.threshold ?? 0.5,
    minCount: input.minCount ?? 2,
  };
  const rotateAfter = input.continueAsNewAfter ?? DEFAULT_CONTINUE_AS_NEW_AFTER;
  let handled = 0;
  const rotate = () => handled >= rotateAfter || workflowInfo().continueAsNewSuggested;

  // The handler only queues: events are handled one at a time in the loop, so two never race on the buffer.
  setHandler(failureSignal, (event) => void pending.push(event));
  setHandler(learningStateQuery, () => ({ ...state, pending: pending.length }));
  setHandler(learningQuery, () => state.learned);
  setHandler(memoryQuery, () => state.learned);

  for (;;) {
    setCurrentDetails(describe(state));
    await condition(() => pending.length > 0 || rotate());
    if (rotate()) break;
    const event = parseFailureEvent(pending.shift());
    handled++;
    if (!event.success) {
      log.warn(event.error);
      recordProblem(state, event.error, new Date().toISOString());
      continue;
    }
    // History is kept whatever the learning gate says: adaptations use it, not the skill writer.
    const record = historyRecordOf(event.data);
    if (record) recordHistory(state.learned, record);
    // Histories from before the learnable-failure rule buffered every class: they replay as they ran.
    const learnableOnly = patched(LEARNABLE_FAILURES_PATCH);
    if (acceptFailure(state, event.data, learning, { learnableOnly }) === 'buffered')
      await writeReadySkills(state, writing);
  }

  await condition(allHandlersFinished);
  await continueAsNew<typeof learningWorkflow>({
    ...input,
    carried: { state: { ...state, continuedAsNew: state.continuedAsNew + 1 }, pending },
  });
}

/** A malformed gate would otherwise throw a plain error and retry the workflow task forever. */
function readLearning(value: unknown) {
  const parsed = learningConfigSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw ApplicationFailure.nonRetryable(
    `learning workflow input learning.${issue.path.join('.')}: ${issue.message}; pass { enabled: boolean, roles: string[] }`,
    'InvalidLearningInput',
  );
}

function describe(state: LearningState): string {
  return `${state.project}/${state.role}: ${state.buffer.length} buffered, ${state.learned.skills.length} skills, ${state.learned.history.length} failures in history, ${state.errors.length} errors, ${state.ignored} ignored`;
}
