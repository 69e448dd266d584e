import { describe, expect, it } from 'vitest';
import {
  markNotRun,
  markStarted,
  recordOutcome,
  recordRunError,
} from '../../../../domain/project/task-record-updates.js';
import { attempt, outcome, plannedTask, projectState } from './fixtures.js';

const t0 = '2024-01-01T00:00:00.000Z';
const t5 = '2024-01-01T00:00:05.000Z';
const t6 = '2024-01-01T00:00:06.000Z';
const t9 = '2024-01-01T00:00:09.000Z';

describe('task runs', () => {
  it('records a first-attempt pass: COMPLETED, attempt 1, duration from start to end, telemetry summed', () => {
    const record = projectState(plannedTask('a')).tasks[0]!;
    expect(markStarted(record, t0)).toBeUndefined();
    expect(record).toMatchObject({ status: 'RUNNING', runs: 1, startedAt: t0 });
    recordOutcome(record, outcome('COMPLETED', [attempt(1, 'PASSED', 3)]), t5);
    expect(record).toMatchObject({
      status: 'COMPLETED',
      attempt: 1,
      attempts: 1,
      passedAtAttempt: 1,
      phase: 'done',
      endedAt: t5,
      durationMs: 5000,
      turnsConsumed: 2,
    });
    expect(record.telemetry).toMatchObject({ modelRequests: 3, inputTokens: 300 });
  });

  it('sums the telemetry of every candidate an attempt drew, the ones set aside too', () => {
    const record = projectState(plannedTask('a')).tasks[0]!;
    markStarted(record, t0);
    const kept = attempt(1, 'PASSED', 3);
    const lost = attempt(1, 'PASSED', 2);
    kept.candidates = [
      {
        candidate: 1,
        startedAt: t0,
        endedAt: t5,
        coder: lost.coder!,
        failure: { node: 'test', failureClass: 'code_defect', reason: 'tests failed' },
      },
    ];
    recordOutcome(record, outcome('COMPLETED', [kept]), t5);
    expect(record.telemetry).toMatchObject({ modelRequests: 5, inputTokens: 500 });
  });

  it('takes the failure class from the recommendation, else from the last attempt', () => {
    const [a, b] = projectState(plannedTask('a'), plannedTask('b')).tasks;
    markStarted(a!, t0);
    recordOutcome(
      a!,
      outcome('FAILED', [attempt(1, 'FAILED')], { recommendation: 'split_task', reason: 'tests still fail' }),
      t5,
    );
    expect(a).toMatchObject({ status: 'FAILED', failureClass: 'split_task', reason: 'tests still fail' });
    markStarted(b!, t0);
    recordOutcome(
      b!,
      outcome('FAILED', [attempt(1, 'FAILED', 1, { node: 'test', failureClass: 'model_problem', reason: 'r' })]),
      t5,
    );
    expect(b).toMatchObject({ failureClass: 'model_problem' });
  });

  it('adds attempts, time and telemetry over runs, and a retried pass counts at its overall attempt', () => {
    const record = projectState(plannedTask('a')).tasks[0]!;
    markStarted(record, t0);
    recordOutcome(
      record,
      outcome('FAILED', [attempt(1, 'REWORK_REQUIRED'), attempt(2, 'FAILED')], { recommendation: 'replan' }),
      t5,
    );
    record.hint = 'use +';
    expect(markStarted(record, t6)).toBe('use +');
    expect(record).not.toHaveProperty('failureClass');
    expect(record).not.toHaveProperty('hint');
    expect(record).not.toHaveProperty('endedAt');
    recordOutcome(record, outcome('COMPLETED', [attempt(1, 'PASSED')]), t9);
    expect(record).toMatchObject({
      runs: 2,
      attempt: 1,
      attempts: 3,
      passedAtAttempt: 3,
      durationMs: 8000,
      startedAt: t6,
      endedAt: t9,
    });
    expect(record.telemetry.modelRequests).toBe(6);
  });

  it('records a run that ended without an outcome, and tasks that never ran', () => {
    const [a, b, c] = projectState(plannedTask('a'), plannedTask('b'), plannedTask('c')).tasks;
    markStarted(a!, t0);
    recordRunError(a!, 'FAILED', 'task workflow was terminated', t5);
    expect(a).toMatchObject({
      status: 'FAILED',
      reason: 'task workflow was terminated',
      durationMs: 5000,
      attempts: 0,
    });
    markNotRun(b!, 'SKIPPED', "dependency 'a' is FAILED", t5);
    expect(b).toMatchObject({ status: 'SKIPPED', reason: "dependency 'a' is FAILED", endedAt: t5, durationMs: 0 });
    expect(b).not.toHaveProperty('startedAt');
    markNotRun(c!, 'CANCELLED', 'project cancelled', t5);
    expect(c!.status).toBe('CANCELLED');
  });
});
