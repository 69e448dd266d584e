// The coder loop: the model edits the worktree through tools, turn by turn, until it calls finish.
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { defaultCapabilities, type Capability } from '../../domain/capabilities.js';
import { boundTranscript, type ContextSection } from '../../domain/context-budget.js';
import type { ShownLines } from '../../domain/edit-match.js';
import { EVIDENCE_CLOSING } from '../../domain/evidence-first/evidence-prompt.js';
import { readRunSites, type RunSites } from '../../domain/evidence-first/regressions.js';
import type { FailureCause } from '../../domain/failure-causes.js';
import { causeOfCoderResult } from '../../domain/node-causes.js';
import { boundPaths } from '../../domain/payload-bounds.js';
import type { ArtifactRef, CoderResult } from '../../domain/records.js';
import { scrubSecrets, scrubText } from '../../domain/secrets.js';
import { emptyTelemetry } from '../../domain/telemetry.js';
import type { ContextPlan } from '../../domain/model-context.js';
import { DEFAULT_MODEL_WAIT_MS } from '../../domain/model-wait.js';
import { startWatch, watchTurn, type NoProgressLimits, type ProgressWatch } from '../../domain/no-progress.js';
import { ModelProblem } from '../models/types.js';
import type { AssistantTurn, ChatMessage, ModelProvider, ToolSpec } from '../models/types.js';
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
    /** `text`: the requests carry no tools; the prompt shows them and the calls are read from the reply's text. */
    toolCalls?: 'native' | 'text';
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

/**
 * The run's coaching: a version made for small models, which lists its tools and run_tests among them, also has a
 * finish after an untested edit refused (once) and a test run with nothing changed since a failing one refused; the
 * champion's finish and runs stay the model's own call.
 */
function coachingFor(coaching: Coaching, listed: readonly string[] | undefined, tests: InAttemptTests | undefined) {
  return listed?.includes('run_tests') && tests !== undefined
    ? { ...coaching, refuseUntestedFinish: true, refuseRepeatedTestRun: true }
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
  opening: CoderRun['opening'],
): Promise<ChatMessage[]> {
  const { worktreePath, goal, hint, previousAttempts } = input;
  // One listing of the worktree for both (a git process; tens of ms on a large repository).
  const files = await (input.repoFiles ?? listRepoFiles(worktreePath));
  if (input.agent?.context === 'evidence') {
    opening.sections ??= gatherEvidenceOpening({ worktreePath, goal, hint, files, tests: input.tests }).then(
      (gathered) => {
        if (gathered.run) opening.base = readRunSites(gathered.run.stdoutExcerpt, gathered.run.cases);
        opening.shown = gathered.shown;
        opening.assertions = gathered.assertions;
        return gathered.opening;
      },
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

/** One coder run's state: what it offers the model, the transcript so far, and what it has spent and seen. */
interface CoderRun {
  input: RunCoderInput;
  caller: ToolCaller;
  toolSpecs: ToolSpec[];
  toolNames: string[];
  systemPrompt: string;
  window: ContextInputs;
  plan: ContextPlan;
  /** The evidence-first opening, made once per run (a refit reuses it), and the base run run_tests compares with. */
  opening: {
    sections?: Promise<ContextSection[]>;
    base?: RunSites;
    shown?: ReadonlyMap<string, readonly ShownLines[]>;
    assertions?: readonly string[];
  };
  messages: ChatMessage[];
  context: ToolContext;
  /** The plan was fitted to the server's window once already. */
  refitted: boolean;
  watch: ProgressWatch;
  /** Every reply so far (replyKey), and whether the last one had come before. */
  repliesSeen: Set<string>;
  repeated: boolean;
  /** The model the spec asks for (`openai:gemma` asks for `gemma`); a reply naming another is recorded. */
  askedModel: string;
  answeredBy: Set<string>;
  lastError?: string;
  turnsConsumed: number;
  transcript?: ArtifactRef;
  transcriptPath: string;
}

/** The run's tools, prompt, context plan and first messages (or the resumed ones). */
async function startRun(input: RunCoderInput): Promise<CoderRun> {
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
  const offeredSpecs = tools.map((tool) => tool.spec);
  const toolNames = offeredSpecs.map((spec) => spec.name);
  // A version that writes its calls as text sends no tool list: a chat template's own tool block (Qwen's) otherwise
  // joins the prompt, and there the 1.5B read a file it had been shown where without it it made the fix.
  const toolSpecs = input.agent?.toolCalls === 'text' ? [] : offeredSpecs;
  const systemPrompt = buildSystemPrompt(tools, input.systemPrompt);
  const window: ContextInputs = {
    provider: input.provider,
    setting: input.contextWindow,
    settingNames: input.contextWindowNames ?? [],
    systemPrompt,
    tools: toolSpecs,
    signal: input.signal,
  };
  const plan = await planCoderContext(window);
  const opening: CoderRun['opening'] = {};
  const messages = resumed?.messages ?? (await firstMessages(input, systemPrompt, plan.firstMessageBudget, opening));
  // Only the goal and the latest evidence are left when the first message is fitted: past the window, no turn can run.
  if (!resumed) assertPromptFits(messages, plan, window);
  const context: ToolContext = {
    root: input.worktreePath,
    // offeredToolReplies starts at 0 in a new run, so a run with no well-formed reply says so (eval's rate).
    telemetry: { ...emptyTelemetry(), offeredToolReplies: 0, ...resumed?.progress.telemetry },
    failedReplacePaths: new Set(),
    changedFiles: new Set(resumed?.progress.changedFiles ?? []),
    tests: input.tests,
    ...(opening.base ? { baseTestRun: opening.base } : {}),
    ...(opening.shown ? { shownCode: opening.shown } : {}),
    ...(opening.assertions ? { evidenceLines: opening.assertions } : {}),
    ...(input.coaching ? { coaching: coachingFor(input.coaching, input.agent?.tools, input.tests) } : {}),
  };
  return {
    ...{ input, caller, toolSpecs, toolNames, systemPrompt, window, plan, opening, messages, context },
    ...{ refitted: false, watch: startWatch(), repliesSeen: new Set(), repeated: false },
    askedModel: input.provider.spec.slice(input.provider.spec.indexOf(':') + 1),
    answeredBy: new Set(resumed?.progress.answeredBy ?? []),
    turnsConsumed: resumed?.progress.turnsConsumed ?? 0,
    transcriptPath: path.join(input.artifactDir, TRANSCRIPT_NAME),
  };
}

/** Saves the transcript and the progress a retried activity resumes from. */
async function saveTranscript(run: CoderRun, step: number, finished?: string): Promise<void> {
  const { context, answeredBy, input } = run;
  const progress = {
    step,
    turnsConsumed: run.turnsConsumed,
    telemetry: context.telemetry,
    changedFiles: [...context.changedFiles],
    ...(answeredBy.size > 0 ? { answeredBy: [...answeredBy] } : {}),
    ...(finished === undefined ? {} : { finished }),
  };
  const { artifactDir: dir, hostId, secretValues } = input;
  run.transcript = await saveProgress({ dir, hostId, messages: run.messages, progress, secretValues });
}

/** The run's result, its texts scrubbed of secrets, with the cause of any ending but finished. */
function resultOf(
  run: CoderRun,
  status: CoderResult['status'],
  summary: string,
  reason?: string,
  cause?: FailureCause['kind'],
): CoderResult {
  const { secretValues } = run.input;
  const scrubbed = reason === undefined ? undefined : scrubText(reason, secretValues);
  const changedFiles = boundPaths([...run.context.changedFiles].sort()).paths;
  const typed = cause && scrubbed !== undefined ? { kind: cause, message: scrubbed } : undefined;
  return {
    status,
    summary: scrubText(summary, secretValues),
    ...(scrubbed === undefined ? {} : { reason: scrubbed }),
    changedFiles,
    telemetry: run.context.telemetry,
    turnsConsumed: run.turnsConsumed,
    transcript: run.transcript,
    ...(run.answeredBy.size > 0 ? { answeredBy: [...run.answeredBy] } : {}),
    ...(status === 'finished'
      ? {}
      : { cause: causeOfCoderResult({ status, reason: scrubbed, changedFiles, cause: typed }) }),
  };
}

/**
 * One model call of step `step`: the turn, or `refit` when the server's window was smaller than planned (the plan is
 * fitted to it, once, and the step asked again), or the result when the model itself failed. Infrastructure failures
 * propagate, carrying what was spent.
 */
async function askModel(run: CoderRun, step: number): Promise<AssistantTurn | 'refit' | CoderResult> {
  const { input, toolSpecs, context } = run;
  const { secretValues, signal } = input;
  // Tool replies carry file contents: scrub before the provider sees them.
  const request = boundTranscript(scrubSecrets(run.messages, secretValues), {
    maxTokens: input.maxContextTokens ?? run.plan.promptBudget - toolTokensOf(toolSpecs),
    keepLatest: KEEP_LATEST_TOOLS,
    pointer: (index) => `message ${index} of the transcript ${run.transcriptPath}`,
  });
  const beat = (lastModelError?: string) => {
    if (lastModelError !== undefined) run.lastError = scrubText(lastModelError, secretValues);
    const telemetry = { ...context.telemetry };
    input.heartbeat?.({ step: step - 1, transcriptPath: run.transcriptPath, telemetry, lastModelError: run.lastError });
  };
  try {
    return await callModel({
      provider: input.provider,
      request: {
        ...{ role: 'coder' as const, messages: request, tools: toolSpecs },
        // A reply sent before, word for word, is asked for again with sampling varied: at temperature 0 a small
        // model answers a refusal with the reply that was refused.
        ...(run.repeated ? { sampling: { temperature: REPEAT_TEMPERATURE, seed: step } } : {}),
      },
      ...{ telemetry: context.telemetry, waitBoundMs: input.modelWaitMs ?? DEFAULT_MODEL_WAIT_MS, heartbeat: beat },
      signal,
    });
  } catch (error) {
    if (isContextOverflow(error) && !run.refitted) {
      run.refitted = true;
      run.plan = tightenPlan(run.plan, error.message, run.window);
      if (run.messages.length === 2 && !input.resume)
        run.messages.splice(
          0,
          2,
          ...(await firstMessages(input, run.systemPrompt, run.plan.firstMessageBudget, run.opening)),
        );
      return 'refit';
    }
    // The failed call is counted: saved so a retry of the node resumes with it, and carried on the failure.
    await saveTranscript(run, step - 1);
    if (isContextOverflow(error)) {
      const overflow = contextOverflow(run.plan, promptTokensOf(request, toolSpecs), run.window, error.message);
      throw withSpending(overflow, context.telemetry, signal);
    }
    // Only the model's own failure becomes a result; infrastructure failures are Temporal's to retry.
    if (!(error instanceof ModelProblem)) throw withSpending(error, context.telemetry, signal);
    return resultOf(run, 'model_error', '', error.message, error.causeKind);
  }
}

/** Runs the turn's calls and saves the transcript; the result when the run ends with this turn. */
async function takeTurn(run: CoderRun, step: number, reply: AssistantTurn): Promise<CoderResult | undefined> {
  const { input, context } = run;
  run.turnsConsumed += 1;
  if (reply.model !== undefined && reply.model !== run.askedModel) run.answeredBy.add(reply.model);
  const turn = withTextToolCalls(reply, run.toolNames, step, context);
  run.messages.push({ role: 'assistant', content: turn.content, toolCalls: turn.toolCalls });
  const maxTokens = input.provider.maxTokens;
  const { caller, messages } = run;
  const { finished, facts } = await runTurnCalls({ turn, messages, context, caller, maxTokens, signal: input.signal });
  await saveTranscript(run, step, finished);
  input.heartbeat?.({ step, transcriptPath: run.transcriptPath, telemetry: { ...context.telemetry } });
  if (finished !== undefined) return resultOf(run, 'finished', finished);
  const watched = watchTurn(run.watch, facts, input.noProgressLimits);
  run.watch = watched.watch;
  if (facts.reply !== undefined) {
    run.repeated = run.repliesSeen.has(facts.reply);
    run.repliesSeen.add(facts.reply);
  }
  if (watched.stop)
    return stoppedWithout(run, step, 'stuck', resultOf(run, 'model_error', '', watched.stop, 'CoderStuck'));
  return undefined;
}

/** A run that ends without finish: finished when the tests pass on the model's change (tests-decide.ts), else `ended`. */
async function stoppedWithout(run: CoderRun, step: number, why: string, ended: CoderResult): Promise<CoderResult> {
  const note = (content: string) => run.messages.push({ role: 'user', content });
  if (!(await testsPassAtStop(run.context, run.toolNames, note))) return ended;
  const summary = testsDecidedSummary(why);
  await saveTranscript(run, step, summary);
  return resultOf(run, 'finished', summary);
}

/**
 * Runs the coder in `worktreePath` until the model calls finish (`finished`), `maxSteps` turns pass
 * (`max_steps`), the allowance runs out (`budget_exhausted`) or the model fails (`model_error`).
 * Infrastructure failures of the provider propagate.
 */
export async function runCoder(input: RunCoderInput): Promise<CoderResult> {
  if (!Number.isInteger(input.maxSteps) || input.maxSteps < 1) {
    throw ApplicationFailure.create({
      type: 'InvalidCoderInput',
      nonRetryable: true,
      message: `maxSteps must be a positive integer, got ${String(input.maxSteps)}: pass the task's coder step budget (e.g. 30)`,
    });
  }
  input.signal?.throwIfAborted();
  const run = await startRun(input);
  const resumed = input.resume?.progress;
  if (resumed?.finished !== undefined) {
    await saveTranscript(run, resumed.step, resumed.finished);
    return resultOf(run, 'finished', resumed.finished);
  }
  for (let step = (resumed?.step ?? 0) + 1; step <= input.maxSteps; step++) {
    input.signal?.throwIfAborted();
    const exhausted = overAllowance(run.context.telemetry, input.allowance);
    if (exhausted) {
      await saveTranscript(run, step - 1);
      return resultOf(run, 'budget_exhausted', '', exhausted);
    }
    const asked = await askModel(run, step);
    if (asked === 'refit') {
      step -= 1;
      continue;
    }
    if ('status' in asked) return asked;
    const ended = await takeTurn(run, step, asked);
    if (ended !== undefined) return ended;
  }
  const ended = resultOf(run, 'max_steps', '', `max steps (${input.maxSteps}) reached without finish`);
  return stoppedWithout(run, input.maxSteps, 'max steps', ended);
}
