import { describe, expect, it } from 'vitest';
import { buildProjectReport, viewProjectState } from '../../../../domain/project/project-report.js';
import { markNotRun, markStarted, recordOutcome } from '../../../../domain/project/task-record-updates.js';
import { attempt, outcome, plannedTask, projectState } from './fixtures.js';

const at = (seconds: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, seconds)).toISOString();

/** a passes at attempt 1, b at attempt 2, c fails, d is skipped. */
function finishedProject() {
  const state = projectState(plannedTask('a'), plannedTask('b'), plannedTask('c'), plannedTask('d', 'c'));
  const [a, b, c, d] = state.tasks;
  markStarted(a!, at(0));
  recordOutcome(a!, outcome('COMPLETED', [attempt(1, 'PASSED', 2)]), at(4));
  markStarted(b!, at(0));
  recordOutcome(b!, outcome('COMPLETED', [attempt(1, 'REWORK_REQUIRED', 2), attempt(2, 'PASSED', 3)]), at(10));
  markStarted(c!, at(4));
  recordOutcome(
    c!,
    outcome('FAILED', [attempt(1, 'FAILED', 1)], { recommendation: 'split_task', reason: 'tests fail' }),
    at(6),
  );
  markNotRun(d!, 'SKIPPED', "dependency 'c' is FAILED", at(6));
  state.finished = true;
  return state;
}

describe('buildProjectReport', () => {
  it('gives per-task status, attempts, time and class, with the workflow id and start and end', () => {
    const report = buildProjectReport(finishedProject());
    // The same line as the state query's, without its `state` alias.
    expect(report.tasks[2]).not.toHaveProperty('state');
    expect(report.tasks[2]).toMatchObject({
      id: 'c',
      milestone: 'm1',
      feature: 'f1',
      status: 'FAILED',
      attempts: 1,
      durationMs: 2000,
      failureClass: 'split_task',
      reason: 'tests fail',
      workflowId: 'task-demo-c',
      startedAt: at(4),
      endedAt: at(6),
    });
    expect(report.tasks[3]).toMatchObject({
      id: 'd',
      status: 'SKIPPED',
      attempts: 0,
      durationMs: 0,
      reason: "dependency 'c' is FAILED",
      workflowId: 'task-demo-d',
      endedAt: at(6),
    });
  });

  it('gives pass rates at attempt 1 and overall, telemetry totals and spend', () => {
    const report = buildProjectReport(finishedProject());
    expect(report).toMatchObject({
      status: 'COMPLETED',
      total: 4,
      passRateAtAttempt1: 0.25,
      passRate: 0.5,
      continuedAsNew: 0,
    });
    expect(report.counts).toMatchObject({ COMPLETED: 2, FAILED: 1, SKIPPED: 1 });
    expect(report.spend).toEqual({
      attempts: 4,
      childRuns: 3,
      modelRequests: 8,
      inputTokens: 800,
      outputTokens: 80,
      taskTimeMs: 16_000,
    });
    expect(report.telemetry).toMatchObject({
      model_requests_per_task: 2,
      patch_attempts: 4,
      patch_success_rate: 1,
      input_tokens: 800,
    });
  });

  it('says a cancelled project is CANCELLED and why', () => {
    const state = finishedProject();
    state.cancelRequested = true;
    state.cancelReason = 'wrong goal';
    expect(buildProjectReport(state)).toMatchObject({ status: 'CANCELLED', cancelReason: 'wrong goal' });
  });
});

describe('viewProjectState', () => {
  it('lists every task with state, attempt, phase and times, without specs or telemetry', () => {
    const state = finishedProject();
    state.finished = false;
    markStarted(state.tasks[2]!, at(20));
    const view = viewProjectState(state);
    expect(view).toMatchObject({ project: 'demo', status: 'RUNNING', paused: false, concurrency: 2 });
    expect(view.tasks[1]).toEqual({
      id: 'b',
      status: 'COMPLETED',
      state: 'COMPLETED',
      durationMs: expect.any(Number) as number,
      passedAtAttempt: expect.any(Number) as number,
      workflowId: 'task-demo-b',
      dependsOn: [],
      milestone: 'm1',
      feature: 'f1',
      runs: 1,
      attempts: 2,
      attempt: 2,
      phase: 'done',
      startedAt: at(0),
      endedAt: at(10),
    });
    expect(view.tasks[2]).toMatchObject({ status: 'RUNNING', state: 'RUNNING', runs: 2, startedAt: at(20) });
    expect(view.tasks[2]).not.toHaveProperty('phase');
    expect(JSON.stringify(view)).not.toContain('scripted:');
  });
});
