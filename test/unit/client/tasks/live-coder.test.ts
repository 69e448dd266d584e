import type { WorkflowExecutionDescription } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { formatLiveCoder, readLiveCoder } from '../../../../client/tasks/live-coder.js';
import { emptyTelemetry } from '../../../../domain/telemetry.js';

/** A describe() result holding the given pending activities, as the server returns them. */
const describing = (pendingActivities: unknown[]) =>
  ({ raw: { pendingActivities } }) as unknown as WorkflowExecutionDescription;

describe('readLiveCoder', () => {
  it("reads the running coder's counts and last model error from its heartbeat details", () => {
    const details = {
      step: 2,
      transcriptPath: '/tmp/t.json',
      telemetry: { ...emptyTelemetry(), modelRequests: 4, failedModelRequests: 2, inputTokens: 5924 },
      lastModelError: 'openai:gemma (coder) at http://127.0.0.1:8080/v1 did not answer within 90000 ms',
    };
    const live = readLiveCoder(
      describing([
        { activityType: { name: 'claimWorktree' } },
        {
          activityType: { name: 'runCoder' },
          attempt: 2,
          heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload(details)] },
        },
      ]),
    );
    expect(live).toEqual({
      activityAttempt: 2,
      step: 2,
      telemetry: details.telemetry,
      lastModelError: details.lastModelError,
      transcriptPath: '/tmp/t.json',
    });
    expect(formatLiveCoder(live ?? { activityAttempt: 1 })).toBe(
      'coder now: step 2, try 2, 4 model requests (2 failed, 0 waits for the server), tokens 5924 in / 0 out\n' +
        `  last model error: ${details.lastModelError}`,
    );
  });

  it("falls back to the activity's last failure before any heartbeat, and says nothing when no coder runs", () => {
    const live = readLiveCoder(
      describing([{ activityType: { name: 'runCoder' }, attempt: 3, lastFailure: { message: 'fetch failed' } }]),
    );
    expect(live).toEqual({ activityAttempt: 3, lastModelError: 'fetch failed' });
    expect(readLiveCoder(describing([{ activityType: { name: 'runTests' } }]))).toBeUndefined();
  });
});
