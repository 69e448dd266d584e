// The coder loop: the model edits the worktree through tools, turn by turn, until it calls finish.
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { defaultCapabilities, type Capability } from '../../domain/capabilities.js';
import { boundTranscript, type ContextSection } from '../../domain/context-budget.js';
import { EVIDENCE_CLOSING } from '../../domain/evidence-first/evidence-prompt.js';
import type { FailureCause } from '../../domain/failure-causes.js';
import { causeOfCoderResult } from '../../domain/node-causes.js';
import type { ArtifactRef, CoderResult } from '../../domain/records.js';
import { scrubSecrets, scrubText } from '../../domain/secrets.js';
import { emptyTelemetry } from '../../domain/telemetry.js';
import { DEFAULT_MODEL_WAIT_MS } from '../../domain/model-wait.js';
import { startWatch, watchTurn, type NoProgressLimits } from '../../domain/no-progress.js';
import { ModelProblem } from '../models/types.js';
import type { AssistantTurn, ChatMessage, ModelProvider } from '../models/types.js';
import {
  assertPromptFits,
  contextOverflow,
  isContextOverflow,
  planCoderContext,
  promptTokensOf,
  tightenPlan,
  toolTokensOf,
  type ContextInputs,
} from './context-window.js';
import { callModel } from './model-call.js';
import { runTurnCalls, withTextToolCalls } from './turn-calls.js';
import { withSpending } from './spending.js';
import { buildCoderMessages, buildRepoMap } from './context.js';
import { gatherEvidenceOpening } from './evidence-context.js';
import { refuseUnknownTools } from './tool-names.js';
import { listRepoFiles } from './repo-map.js';
import type { AttemptSummary } from './context.js';
import { readRelevantFiles } from './relevant-files.js';
import { saveProgress, TRANSCRIPT_NAME, type CoderHeartbeat, type SavedProgress } from './progress.js';
import { buildSystemPrompt } from './system-prompt.js';
import { testsDecidedSummary, testsPassAtStop } from './tests-decide.js';
import { toolsFor, type ToolCaller } from './tools/registry.js';
import type { Coaching } from './tools/coaching.js';
import type { InAttemptTests } from './tools/test-runner.js';
import type { ToolContext } from './tools/types.js';

// The temperature of a request after a reply the model had sent before.
const REPEAT_TEMPERATURE = 0.8;

// The outputs the coder needs whole however long the attempt: the latest diff and the latest test run.
const KEEP_LATEST_TOOLS = ['git_diff', 'run_tests'];

/** What the task may still spend; the coder stops before a turn that would go past it. */
export interface CoderAllowance {
  modelCalls: number;
  tokens: number;
  /** Epoch ms when the task's wall-time budget ends. */
  deadlineAt?: number;
}

export interface RunCoderInput {
  worktreePath: string;
  goal: string;
  provider: ModelProvider;
  /** Most model turns this run may take. */
  maxSteps: number;
  previousAttempts: AttemptSummary[];
  hint?: string;
  secretValues: string[];
  artifactDir: string;
  hostId: string;
  allowance?: CoderAllowance;
  /** The agent version's system prompt (tool lines at `{{tools}}`); the built-in one when absent. */
  systemPrompt?: string;
  /**
   * The agent version that runs: its capabilities, what its first message brings (`evidence`: the tests at the base,
   * then the code they and the goal name) and the tools it lists; the built-in coder when absent.
   */
  agent?: {
    label: string;
    capabilities: readonly Capability[];
    context?: 'repository' | 'evidence';
    tools?: readonly string[];
  };
  /** How run_tests runs the task's tests; without it run_tests replies that there is no test command. */
  tests?: InAttemptTests;
  /** What the tools refuse that cannot help the task (tools/coaching.ts); nothing when absent. */
  coaching?: Coaching;
  /** Most estimated tokens one request may hold, fixed (tests); by default from the context window's plan. */
  maxContextTokens?: number;
  /** The context window a person set (variable or agent version), used when the server does not report one. */
  contextWindow?: { tokens: number; name: string };
  /** The settings that change the window, named when the prompt does not fit. */
  contextWindowNames?: string[];
  /** Titled context sections from learning (skills, adaptations). */
  extraSections?: { title: string; text: string }[];
  /** The worktree's listing (listRepoFiles), when the caller started it early; listed here otherwise. */
  repoFiles?: Promise<string[]>;
  /** When a run counts as stuck (domain/no-progress.ts defaults when absent). */
  noProgressLimits?: NoProgressLimits;
  /** How long an unreachable model server is waited for before the run fails (default DEFAULT_MODEL_WAIT_MS). */
  modelWaitMs?: number;
  /** Progress saved by an earlier try of this same run (`loadProgress`): continue after its last completed turn. */
  resume?: SavedProgress;
  heartbeat?: (details?: CoderHeartbeat) => void;
  signal?: AbortSignal;
}

/** The run's coaching: a finish after an untested edit is refused too where the version can run the tests. */
function coachingFor(coaching: Coaching, toolNames: string[], tests: InAttemptTests | undefined): Coaching {
  return toolNames.includes('run_tests') && tests !== undefined
    ? { ...coaching, refuseUntestedFinish: true }
    : coaching;
}

/** Why the next turn may not run, or undefined while the allowance lasts. */
function overAllowance(telemetry: ToolContext['telemetry'], allowance: CoderAllowance | undefined): string | undefined {
  if (!allowance) return undefined;
  if (telemetry.modelRequests >= allowance.modelCalls)
    return `budget exhausted: model calls (${telemetry.modelRequests} of ${allowance.modelCalls} left for this run)`;
  const tokens = telemetry.inputTokens + telemetry.outputTokens;
  if (tokens >= allowance.tokens)
    return `budget exhausted: tokens (${tokens} of ${allowance.tokens} left for this run)`;
  if (allowance.deadlineAt !== undefined && Date.now() >= allowance.deadlineAt)
    return 'budget exhausted: wall time (the task deadline passed)';
  return undefined;
}

/**
 * The system prompt and the first user message: goal, repo map, relevant files, earlier attempts, hint; for an
 * evidence-first version, the base test run's evidence and the code it names instead of the map (`opening`, made once
 * per run: a refit after a context overflow reuses it rather than running the tests again).
 */
async function firstMessages(
  input: RunCoderInput,
  systemPrompt: string,
  maxContextTokens: number,
  opening: { sections?: Promise<ContextSection[]> },
): Promise<ChatMessage[]> {
  const { worktreePath, goal, hint, previousAttempts } = input;
  // One listing of the worktree for both (a git process; tens of ms on a large repository).
  const files = await (input.repoFiles ?? listRepoFiles(worktreePath));
  if (input.agent?.context === 'evidence') {
    opening.sections ??= gatherEvidenceOpening({ worktreePath, goal, hint, files, tests: input.tests }).then(
      (gathered) => gathered.opening,
    );
    return buildCoderMessages({
      goal,
      repoMap: '',
      opening: await opening.sections,
      closing: EVIDENCE_CLOSING,
      previousAttempts,
      hint,
      secretValues: input.secretValues,
      systemPrompt,
      extraSections: input.extraSections,
      maxContextTokens,
    });
  }
  const [repoMap, relevantFiles] = await Promise.all([
    buildRepoMap(worktreePath, { files }),
    readRelevantFiles({ worktreePath, goal, hint, previousAttempts, files }),
  ]);
  return buildCoderMessages({
    goal,
    repoMap,
    relevantFiles,
    previousAttempts,
    hint,
    secretValues: input.secretValues,
    systemPrompt,
    extraSections: input.extraSections,
    maxContextTokens,
  });
}

/**
 * Runs the coder in `worktreePath` until the model calls finish (`finished`), `maxSteps` turns pass
 * (`max_steps`), the allowance runs out (`budget_exhausted`) or the model fails (`model_error`).
 * Infrastructure failures of the provider propagate.
 */
export async function runCoder(input: RunCoderInput): Promise<CoderResult> {
  const { signal, secretValues } = input;
  if (!Number.isInteger(input.maxSteps) || input.maxSteps < 1) {
    throw ApplicationFailure.create({
      type: 'InvalidCoderInput',
      nonRetryable: true,
      message: `maxSteps must be a positive integer, got ${String(input.maxSteps)}: pass the task's coder step budget (e.g. 30)`,
    });
  }
  signal?.throwIfAborted();
  const resumed = input.resume;
  const caller: ToolCaller = input.agent
    ? {
        agent: input.agent.label,
        capabilities: input.agent.capabilities,
        ...(input.agent.tools ? { tools: input.agent.tools } : {}),
      }
    : { agent: 'coder/builtin', capabilities: defaultCapabilities.coder };
  const tools = toolsFor(caller.capabilities, caller.tools);
  if (caller.tools) refuseUnknownTools(caller.tools, caller.agent);
  const toolSpecs = tools.map((tool) => tool.spec);
  const toolNames = toolSpecs.map((spec) => spec.name);
  const systemPrompt = buildSystemPrompt(tools, input.systemPrompt);
  const window: ContextInputs = {
    provider: input.provider,
    setting: input.contextWindow,
    settingNames: input.contextWindowNames ?? [],
    systemPrompt,
    tools: toolSpecs,
    signal,
  };
  let plan = await planCoderContext(window);
  const opening: { sections?: Promise<ContextSection[]> } = {};
  const messages = resumed?.messages ?? (await firstMessages(input, systemPrompt, plan.firstMessageBudget, opening));
  // Only the goal and the latest evidence are left when the first message is fitted: past the window, no turn can run.
  if (!resumed) assertPromptFits(messages, plan, window);
  let refitted = false;
  let watch = startWatch();
  const repliesSeen = new Set<string>();
  let repeated = false;
  // What taskloop itself did at the end (a test run), saved with the transcript.
  const note = (content: string) => messages.push({ role: 'user', content });
  const context: ToolContext = {
    root: input.worktreePath,
    // offeredToolReplies starts at 0 in a new run, so a run with no well-formed reply says so (eval's rate).
    telemetry: { ...emptyTelemetry(), offeredToolReplies: 0, ...resumed?.progress.telemetry },
    failedReplacePaths: new Set(),
    changedFiles: new Set(resumed?.progress.changedFiles ?? []),
    tests: input.tests,
    ...(input.coaching ? { coaching: coachingFor(input.coaching, toolNames, input.tests) } : {}),
  };
  const { telemetry } = context;
  // The model the spec asks for (`openai:gemma` asks for `gemma`); a reply naming another is recorded.
  const askedModel = input.provider.spec.slice(input.provider.spec.indexOf(':') + 1);
  const answeredBy = new Set<string>(resumed?.progress.answeredBy ?? []);
  let lastError: string | undefined;
  let turnsConsumed = resumed?.progress.turnsConsumed ?? 0;
  let transcript: ArtifactRef | undefined;
  const transcriptPath = path.join(input.artifactDir, TRANSCRIPT_NAME);
  const saveTranscript = async (step: number, finished?: string) => {
    const progress = {
      step,
      turnsConsumed,
      telemetry,
      changedFiles: [...context.changedFiles],
      ...(answeredBy.size > 0 ? { answeredBy: [...answeredBy] } : {}),
      ...(finished === undefined ? {} : { finished }),
    };
    transcript = await saveProgress({ dir: input.artifactDir, hostId: input.hostId, messages, progress, secretValues });
  };
  const result = (
    status: CoderResult['status'],
    summary: string,
    reason?: string,
    cause?: FailureCause['kind'],
  ): CoderResult => {
    const scrubbed = reason === undefined ? undefined : scrubText(reason, secretValues);
    const changedFiles = [...context.changedFiles].sort();
    const typed = cause && scrubbed !== undefined ? { kind: cause, message: scrubbed } : undefined;
    return {
      status,
      summary: scrubText(summary, secretValues),
      ...(scrubbed === undefined ? {} : { reason: scrubbed }),
      changedFiles,
      telemetry,
      turnsConsumed,
      transcript,
      ...(answeredBy.size > 0 ? { answeredBy: [...answeredBy] } : {}),
      ...(status === 'finished'
        ? {}
        : { cause: causeOfCoderResult({ status, reason: scrubbed, changedFiles, cause: typed }) }),
    };
  };

  const finishedByTests = async (step: number, why: string) => {
    const summary = testsDecidedSummary(why);
    await saveTranscript(step, summary);
    return result('finished', summary);
  };

  if (resumed?.progress.finished !== undefined) {
    await saveTranscript(resumed.progress.step, resumed.progress.finished);
    return result('finished', resumed.progress.finished);
  }
  for (let step = (resumed?.progress.step ?? 0) + 1; step <= input.maxSteps; step++) {
    signal?.throwIfAborted();
    const exhausted = overAllowance(telemetry, input.allowance);
    if (exhausted) {
      await saveTranscript(step - 1);
      return result('budget_exhausted', '', exhausted);
    }
    // Tool replies carry file contents: scrub before the provider sees them.
    const request = boundTranscript(scrubSecrets(messages, secretValues), {
      maxTokens: input.maxContextTokens ?? plan.promptBudget - toolTokensOf(toolSpecs),
      keepLatest: KEEP_LATEST_TOOLS,
      pointer: (index) => `message ${index} of the transcript ${transcriptPath}`,
    });
    const beat = (lastModelError?: string) => {
      if (lastModelError !== undefined) lastError = scrubText(lastModelError, secretValues);
      input.heartbeat?.({ step: step - 1, transcriptPath, telemetry: { ...telemetry }, lastModelError: lastError });
    };
    let turn: AssistantTurn;
    try {
      turn = await callModel({
        provider: input.provider,
        request: {
          role: 'coder',
          messages: request,
          tools: toolSpecs,
          // A reply sent before, word for word, is asked for again with sampling varied: at temperature 0 a small
          // model answers a refusal with the reply that was refused.
          ...(repeated ? { sampling: { temperature: REPEAT_TEMPERATURE, seed: step } } : {}),
        },
        telemetry,
        waitBoundMs: input.modelWaitMs ?? DEFAULT_MODEL_WAIT_MS,
        heartbeat: beat,
        signal,
      });
    } catch (error) {
      // The server's window is smaller than planned: fit to what it said, once, and ask again.
      if (isContextOverflow(error) && !refitted) {
        refitted = true;
        plan = tightenPlan(plan, error.message, window);
        if (messages.length === 2 && !resumed)
          messages.splice(0, 2, ...(await firstMessages(input, systemPrompt, plan.firstMessageBudget, opening)));
        step -= 1;
        continue;
      }
      // The failed call is counted: saved so a retry of the node resumes with it, and carried on the failure.
      await saveTranscript(step - 1);
      if (isContextOverflow(error))
        throw withSpending(
          contextOverflow(plan, promptTokensOf(request, toolSpecs), window, error.message),
          telemetry,
          signal,
        );
      // Only the model's own failure becomes a result; infrastructure failures are Temporal's to retry.
      if (!(error instanceof ModelProblem)) throw withSpending(error, telemetry, signal);
      return result('model_error', '', error.message, error.causeKind);
    }
    turnsConsumed += 1;
    if (turn.model !== undefined && turn.model !== askedModel) answeredBy.add(turn.model);
    turn = withTextToolCalls(turn, toolNames, step, context);
    messages.push({ role: 'assistant', content: turn.content, toolCalls: turn.toolCalls });

    const maxTokens = input.provider.maxTokens;
    const { finished, facts } = await runTurnCalls({ turn, messages, context, caller, maxTokens, signal });
    await saveTranscript(step, finished);
    input.heartbeat?.({ step, transcriptPath, telemetry: { ...telemetry } });
    if (finished !== undefined) return result('finished', finished);
    const watched = watchTurn(watch, facts, input.noProgressLimits);
    watch = watched.watch;
    if (facts.reply !== undefined) {
      repeated = repliesSeen.has(facts.reply);
      repliesSeen.add(facts.reply);
    }
    if (watched.stop) {
      if (await testsPassAtStop(context, toolNames, note)) return finishedByTests(step, 'stuck');
      return result('model_error', '', watched.stop, 'CoderStuck');
    }
  }
  if (await testsPassAtStop(context, toolNames, note)) return finishedByTests(input.maxSteps, 'max steps');
  return result('max_steps', '', `max steps (${input.maxSteps}) reached without finish`);
}
