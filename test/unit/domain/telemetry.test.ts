import { describe, expect, it } from 'vitest';
import { addTelemetry, emptyTelemetry, summarizeTelemetry } from '../../../domain/telemetry.js';
import type { CoderTelemetry } from '../../../domain/records.js';

const sample = (overrides: Partial<CoderTelemetry>): CoderTelemetry => ({ ...emptyTelemetry(), ...overrides });

describe('telemetry', () => {
  it('starts every counter at zero', () => {
    expect(Object.values(emptyTelemetry()).every((value) => value === 0)).toBe(true);
    expect(Object.keys(emptyTelemetry())).toHaveLength(15);
  });

  it('adds field by field', () => {
    const a = sample({ patchAttempts: 1, patchSuccesses: 1, modelRequests: 3, inputTokens: 100 });
    const b = sample({ patchAttempts: 2, patchMismatches: 1, writeFileFallbacks: 1, outputTokens: 7 });
    expect(addTelemetry(a, b)).toEqual(
      sample({
        patchAttempts: 3,
        patchSuccesses: 1,
        patchMismatches: 1,
        writeFileFallbacks: 1,
        modelRequests: 3,
        inputTokens: 100,
        outputTokens: 7,
      }),
    );
  });

  it('summarizes sums and rates with the original loop keys', () => {
    const items = [
      sample({
        patchAttempts: 3,
        patchSuccesses: 2,
        patchMismatches: 1,
        writeFileOperations: 2,
        writeFileFallbacks: 1,
        mutationOperations: 4,
        modelRequests: 5,
        inputTokens: 10,
        outputTokens: 3,
      }),
      sample({
        patchAttempts: 1,
        patchSuccesses: 1,
        writeFileOperations: 2,
        mutationOperations: 2,
        modelRequests: 3,
        inputTokens: 5,
        outputTokens: 2,
      }),
    ];
    expect(summarizeTelemetry(items, { tasks: 2, acceptedTasks: 1 })).toEqual({
      patch_mismatch_count: 1,
      patch_attempts: 4,
      patch_successes: 3,
      write_file_operations: 4,
      write_file_fallbacks: 1,
      mutation_operations_per_accepted_task: 6,
      model_requests_per_task: 4,
      patch_success_rate: 0.75,
      write_file_fallback_rate: 0.25,
      input_tokens: 15,
      output_tokens: 5,
      in_attempt_test_runs: 0,
      refused_tool_calls: 0,
      failed_model_requests: 0,
      model_server_waits: 0,
      text_tool_calls: 0,
      truncated_tool_calls: 0,
    });
  });

  it('adds records made before the in-attempt counters as zero', () => {
    const { inAttemptTestRuns: _runs, refusedToolCalls: _refused, ...old } = sample({ modelRequests: 1 });
    expect(addTelemetry(old, sample({ inAttemptTestRuns: 2 }))).toEqual(
      sample({ modelRequests: 1, inAttemptTestRuns: 2 }),
    );
  });

  it('gives 0 for every ratio whose denominator is 0', () => {
    const summary = summarizeTelemetry([sample({ mutationOperations: 3, modelRequests: 4 })], {
      tasks: 0,
      acceptedTasks: 0,
    });
    expect(summary.mutation_operations_per_accepted_task).toBe(0);
    expect(summary.model_requests_per_task).toBe(0);
    expect(summary.patch_success_rate).toBe(0);
    expect(summary.write_file_fallback_rate).toBe(0);
    expect(summarizeTelemetry([], { tasks: 0, acceptedTasks: 0 }).patch_attempts).toBe(0);
  });
});
