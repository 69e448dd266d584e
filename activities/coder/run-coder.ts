// The coder loop: the model edits the worktree through tools, turn by turn, until it calls finish.
import { ApplicationFailure } from '@temporalio/common';
import type { ArtifactRef, CoderResult } from '../../domain/records.js';
import { scrubSecrets, scrubText } from '../../domain/secrets.js';
import { emptyTelemetry } from '../../domain/telemetry.js';
import { writeArtifact } from '../artifacts.js';
import { estimateUsage } from '../models/estimate-tokens.js';
import { ModelProblem } from '../models/types.js';
import type { AssistantTurn, ChatMessage, ModelProvider } from '../models/types.js';
import { abortable } from './abortable.js';
import { buildCoderMessages, buildRepoMap } from './context.js';
import type { AttemptSummary } from './context.js';
import { coderToolSpecs, runToolCall } from './tools/registry.js';
import type { ToolContext } from './tools/types.js';

const nudge = 'You replied without calling a tool. Use the tools to make the change, then call finish with a summary.';

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
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
}

/** Runs tool calls in order; stops at `finish` and returns its summary. */
async function runToolCalls(turn: AssistantTurn, messages: ChatMessage[], context: ToolContext, signal?: AbortSignal) {
  for (const call of turn.toolCalls) {
    signal?.throwIfAborted();
    const outcome = await runToolCall(call, context);
    messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: outcome.reply });
    if (outcome.finished) return outcome.finished;
  }
  return undefined;
}

/**
 * Runs the coder in `worktreePath` until the model calls finish (`finished`), `maxSteps` turns pass
 * (`max_steps`) or the model fails (`model_error`). Infrastructure failures of the provider propagate.
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
  const repoMap = await buildRepoMap(input.worktreePath);
  const messages = buildCoderMessages({ goal: input.goal, repoMap, previousAttempts: input.previousAttempts, hint: input.hint, secretValues });
  const context: ToolContext = { root: input.worktreePath, telemetry: emptyTelemetry(), failedReplacePaths: new Set(), changedFiles: new Set() };
  const { telemetry } = context;
  let turnsConsumed = 0;
  let transcript: ArtifactRef | undefined;

  const saveTranscript = async () => {
    const content = JSON.stringify(scrubSecrets(messages, secretValues), null, 2);
    transcript = await writeArtifact({ dir: input.artifactDir, name: 'transcript.json', content, hostId: input.hostId });
  };
  const result = (status: CoderResult['status'], summary: string, reason?: string): CoderResult => ({
    status,
    summary: scrubText(summary, secretValues),
    ...(reason === undefined ? {} : { reason: scrubText(reason, secretValues) }),
    changedFiles: [...context.changedFiles].sort(),
    telemetry,
    turnsConsumed,
    transcript,
  });

  for (let step = 1; step <= input.maxSteps; step++) {
    signal?.throwIfAborted();
    const request = [...messages];
    let turn: AssistantTurn;
    try {
      turn = await abortable(input.provider.complete({ role: 'coder', messages: request, tools: coderToolSpecs }), signal);
    } catch (error) {
      // Only the model's own failure becomes a result; infrastructure failures are Temporal's to retry.
      if (!(error instanceof ModelProblem)) throw error;
      await saveTranscript();
      return result('model_error', '', error.message);
    }
    turnsConsumed += 1;
    const usage = turn.usage ?? estimateUsage(request, turn);
    telemetry.modelRequests += 1;
    telemetry.inputTokens += usage.inputTokens;
    telemetry.outputTokens += usage.outputTokens;
    messages.push({ role: 'assistant', content: turn.content, toolCalls: turn.toolCalls });

    const finished = await runToolCalls(turn, messages, context, signal);
    if (turn.toolCalls.length === 0) messages.push({ role: 'user', content: nudge });
    await saveTranscript();
    input.heartbeat?.({ step });
    if (finished) return result('finished', finished.summary);
  }
  return result('max_steps', '', `max steps (${input.maxSteps}) reached without finish`);
}
