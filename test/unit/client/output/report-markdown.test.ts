import { describe, expect, it } from 'vitest';
import { formatReportMarkdown } from '../../../../client/output/report-markdown.js';
import { buildLiveReport } from '../../../../client/projects/live-report.js';

const live = buildLiveReport(
  {
    project: 'calc',
    status: 'PAUSED',
    paused: true,
    concurrency: 1,
    continuedAsNew: 0,
    tasks: [
      {
        id: 'a',
        status: 'FAILED',
        state: 'FAILED',
        durationMs: 0,
        workflowId: 'task-calc-a',
        dependsOn: [],
        milestone: 'm',
        feature: 'f',
        runs: 1,
        attempts: 2,
        failureClass: 'model_problem',
        reason: 'a | b\nsecond line',
      },
      {
        id: 'b',
        status: 'SKIPPED',
        state: 'SKIPPED',
        durationMs: 0,
        workflowId: 'task-calc-b',
        dependsOn: ['a'],
        milestone: 'm',
        feature: 'f',
        runs: 0,
        attempts: 0,
        reason: "dependency 'a' is FAILED",
      },
    ],
  },
  0,
);

describe('formatReportMarkdown', () => {
  it('renders one table row per task, escaping pipes and line breaks so the table holds', () => {
    const lines = formatReportMarkdown(live).split('\n');
    expect(lines[0]).toBe('## Project calc: PAUSED (in progress)');
    expect(lines).toContain('| a | FAILED | 2 | 0.0s | model_problem | a \\| b second line |');
    expect(lines).toContain("| b | SKIPPED | 0 | 0.0s |  | dependency 'a' is FAILED |");
  });

  it('ends with the counts and pass rates', () => {
    const text = formatReportMarkdown(live);
    expect(text).toContain('- tasks: 2 (1 failed, 1 skipped)');
    expect(text).toContain('- pass rate at attempt 1: 0%, overall: 0%');
    expect(text).not.toContain('spend');
  });
});
