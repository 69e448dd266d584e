import { describe, expect, it } from 'vitest';
import { formatTelemetry } from '../../../client/output/task-report.js';
import { formatProjectReport } from '../../../client/output/project-report.js';
import { buildProjectReport } from '../../../domain/project/project-report.js';
import { addTelemetry, emptyTelemetry, summarizeTelemetry } from '../../../domain/telemetry.js';
import { describeSpendTokens, describeTokens } from '../../../domain/token-counts.js';

describe('requests without usage: tokens unknown, apart from the reported ones', () => {
  it('prints the reported tokens, and the requests without usage apart', () => {
    expect(describeTokens({ input: 1200, output: 300, requests: 4 })).toBe('1200 in / 300 out');
    expect(describeTokens({ input: 1200, output: 300, requests: 4, unmetered: 2 })).toBe(
      '1200 in / 300 out (+ 2 requests without usage: unknown)',
    );
    expect(describeTokens({ input: 0, output: 0, requests: 3, unmetered: 3 })).toBe(
      'unknown (no usage came back for 3 requests)',
    );
    expect(describeSpendTokens({ inputTokens: 10, outputTokens: 2, unmeteredModelRequests: 1 })).toBe(
      '10 input + 2 output tokens (+ 1 request without usage: tokens unknown)',
    );
  });

  it('sums the count over attempts and tasks, and status and the project report say it', () => {
    const measured = { ...emptyTelemetry(), modelRequests: 2, inputTokens: 100, outputTokens: 10 };
    const unmetered = { ...emptyTelemetry(), modelRequests: 3, failedModelRequests: 3, unmeteredModelRequests: 3 };
    expect(addTelemetry(measured, unmetered)).toMatchObject({
      modelRequests: 5,
      inputTokens: 100,
      unmeteredModelRequests: 3,
    });
    // Records that never had one keep none: a sum of them is what it was.
    expect(addTelemetry(measured, measured)).not.toHaveProperty('unmeteredModelRequests');
    const summary = summarizeTelemetry([measured, unmetered], { tasks: 1, acceptedTasks: 0 });
    expect(formatTelemetry(summary)).toContain('tokens 100 in / 10 out (+ 3 requests without usage: unknown)');
    expect(formatTelemetry(summarizeTelemetry([unmetered], { tasks: 1, acceptedTasks: 0 }))).toContain(
      'tokens unknown (no usage came back for 3 requests)',
    );
    const report = buildProjectReport({
      project: 'p',
      tasks: [],
      continuedAsNew: 0,
    } as never);
    expect(formatProjectReport({ ...report, spend: { ...report.spend, unmeteredModelRequests: 2 } })).toContain(
      '0 input + 0 output tokens (+ 2 requests without usage: tokens unknown)',
    );
  });
});
