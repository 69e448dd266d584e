// Coder telemetry: counters summed over attempts, and the batch summary of the original Python loop (DESIGN.md) (its snake_case keys and rates).
import type { CoderTelemetry } from './records.js';

/** Telemetry of a coder that did nothing. */
export function emptyTelemetry(): CoderTelemetry {
  return {
    patchAttempts: 0,
    patchSuccesses: 0,
    patchMismatches: 0,
    writeFileOperations: 0,
    writeFileFallbacks: 0,
    mutationOperations: 0,
    modelRequests: 0,
    inputTokens: 0,
    outputTokens: 0,
    inAttemptTestRuns: 0,
    refusedToolCalls: 0,
    failedModelRequests: 0,
    modelServerWaits: 0,
    textToolCalls: 0,
    truncatedToolCalls: 0,
  };
}

/** Field-by-field sum of two telemetry records. */
export function addTelemetry(a: CoderTelemetry, b: CoderTelemetry): CoderTelemetry {
  return {
    patchAttempts: a.patchAttempts + b.patchAttempts,
    patchSuccesses: a.patchSuccesses + b.patchSuccesses,
    patchMismatches: a.patchMismatches + b.patchMismatches,
    writeFileOperations: a.writeFileOperations + b.writeFileOperations,
    writeFileFallbacks: a.writeFileFallbacks + b.writeFileFallbacks,
    mutationOperations: a.mutationOperations + b.mutationOperations,
    modelRequests: a.modelRequests + b.modelRequests,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    inAttemptTestRuns: (a.inAttemptTestRuns ?? 0) + (b.inAttemptTestRuns ?? 0),
    refusedToolCalls: (a.refusedToolCalls ?? 0) + (b.refusedToolCalls ?? 0),
    failedModelRequests: (a.failedModelRequests ?? 0) + (b.failedModelRequests ?? 0),
    modelServerWaits: (a.modelServerWaits ?? 0) + (b.modelServerWaits ?? 0),
    textToolCalls: (a.textToolCalls ?? 0) + (b.textToolCalls ?? 0),
    truncatedToolCalls: (a.truncatedToolCalls ?? 0) + (b.truncatedToolCalls ?? 0),
    ...optionalSum(a.unmeteredModelRequests, b.unmeteredModelRequests, 'unmeteredModelRequests'),
    // Absent in records made before it was counted: a sum of those stays without it.
    ...(a.offeredToolReplies === undefined && b.offeredToolReplies === undefined
      ? {}
      : { offeredToolReplies: (a.offeredToolReplies ?? 0) + (b.offeredToolReplies ?? 0) }),
  };
}

/** `{ [key]: a + b }`, or nothing when both are absent (a counter that most records never have). */
function optionalSum<K extends string>(
  a: number | undefined,
  b: number | undefined,
  key: K,
): Partial<Record<K, number>> {
  return a === undefined && b === undefined ? {} : ({ [key]: (a ?? 0) + (b ?? 0) } as Record<K, number>);
}

/** The original loop's telemetry summary of a batch (or of one task, with counts 1 and 0|1). */
export interface TelemetrySummary {
  patch_mismatch_count: number;
  patch_attempts: number;
  patch_successes: number;
  write_file_operations: number;
  write_file_fallbacks: number;
  mutation_operations_per_accepted_task: number;
  model_requests_per_task: number;
  patch_success_rate: number;
  write_file_fallback_rate: number;
  input_tokens: number;
  output_tokens: number;
  in_attempt_test_runs: number;
  refused_tool_calls: number;
  failed_model_requests: number;
  model_server_waits: number;
  text_tool_calls: number;
  truncated_tool_calls: number;
  /** Requests whose tokens are unknown (no usage came back): not in the token counts; absent when none. */
  unmetered_model_requests?: number;
}

/** Sums telemetry and derives the original loop's rates; a rate whose denominator is 0 is 0. */
export function summarizeTelemetry(
  items: CoderTelemetry[],
  counts: { tasks: number; acceptedTasks: number },
): TelemetrySummary {
  const total = items.reduce(addTelemetry, emptyTelemetry());
  return {
    patch_mismatch_count: total.patchMismatches,
    patch_attempts: total.patchAttempts,
    patch_successes: total.patchSuccesses,
    write_file_operations: total.writeFileOperations,
    write_file_fallbacks: total.writeFileFallbacks,
    mutation_operations_per_accepted_task: ratio(total.mutationOperations, counts.acceptedTasks),
    model_requests_per_task: ratio(total.modelRequests, counts.tasks),
    patch_success_rate: ratio(total.patchSuccesses, total.patchAttempts),
    write_file_fallback_rate: ratio(total.writeFileFallbacks, total.writeFileOperations),
    input_tokens: total.inputTokens,
    output_tokens: total.outputTokens,
    in_attempt_test_runs: total.inAttemptTestRuns ?? 0,
    refused_tool_calls: total.refusedToolCalls ?? 0,
    failed_model_requests: total.failedModelRequests ?? 0,
    model_server_waits: total.modelServerWaits ?? 0,
    text_tool_calls: total.textToolCalls ?? 0,
    truncated_tool_calls: total.truncatedToolCalls ?? 0,
    ...(total.unmeteredModelRequests ? { unmetered_model_requests: total.unmeteredModelRequests } : {}),
  };
}

function ratio(numerator: number, denominator: number): number {
  return denominator > 0 ? numerator / denominator : 0;
}
