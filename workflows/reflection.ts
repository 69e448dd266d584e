// The reflection workflow: one per project and agent role, fed failure events by signal-with-start. It buffers
// failures, and when similar ones recur it has a skill written and clears them. It holds the project's memory (skills
// and failure history), which every host reads through the `memory` query. It runs until terminated, continuing as
// new to keep its history small.
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
  createReflectionState,
  learningConfigSchema,
  parseFailureEvent,
  recordProblem,
  type ReflectionState,
} from '../domain/learning/reflection/index.js';
import { createProjectMemory, historyRecordOf, recordHistory } from '../domain/learning/memory.js';
import { failureSignal, memoryQuery, reflectionStateQuery } from './reflection-messages.js';
import { writeReadySkills } from './reflection/write-skills.js';

/** Skills only from failures a coder can learn from (domain/learning/reflection/gate.ts). */
const LEARNABLE_FAILURES_PATCH = 'skills-from-learnable-failures-only';

export interface ReflectionWorkflowInput {
  project: string;
  /** The agent role whose failures this workflow learns from, e.g. `coder`. */
  role: string;
  /** Unused: each host mirrors skills into its own `<workDir>/skills/<project>` (kept so older starts still parse). */
  skillsDir?: string;
  /** Model spec of the skill writer (the task's coder model by default); without one, skills are distilled without a model. */
  skillWriterModel?: string;
  /** Word overlap at which two task descriptions are similar (default 0.5). */
  threshold?: number;
  /** Similar failures needed before a skill is written (default 2). */
  minCount?: number;
  /** Which roles may learn; a refused role's failures are only counted. */
  learning: { enabled: boolean; roles: string[] };
  /** Continue as new after this many handled signals in one run (default 200), or when Temporal suggests it. */
  continueAsNewAfter?: number;
  /** The previous run's state and its unhandled signals (continue-as-new). */
  carried?: { state: ReflectionState; pending: unknown[] };
}

const DEFAULT_CONTINUE_AS_NEW_AFTER = 200;

export async function reflectionWorkflow(input: ReflectionWorkflowInput): Promise<void> {
  const carried = input.carried?.state;
  // A state carried from before the memory moved here starts with an empty memory.
  const state = carried
    ? { ...carried, memory: carried.memory ?? createProjectMemory() }
    : createReflectionState(input.project, input.role);
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
  setHandler(reflectionStateQuery, () => ({ ...state, pending: pending.length }));
  setHandler(memoryQuery, () => state.memory);

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
    if (record) recordHistory(state.memory, record);
    // Histories from before the learnable-failure rule buffered every class: they replay as they ran.
    const learnableOnly = patched(LEARNABLE_FAILURES_PATCH);
    if (acceptFailure(state, event.data, learning, { learnableOnly }) === 'buffered')
      await writeReadySkills(state, writing);
  }

  await condition(allHandlersFinished);
  await continueAsNew<typeof reflectionWorkflow>({
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
    `reflection input learning.${issue.path.join('.')}: ${issue.message}; pass { enabled: boolean, roles: string[] }`,
    'InvalidReflectionInput',
  );
}

function describe(state: ReflectionState): string {
  return `${state.project}/${state.role}: ${state.buffer.length} buffered, ${state.memory.skills.length} skills, ${state.memory.history.length} failures in history, ${state.errors.length} errors, ${state.ignored} ignored`;
}
