import { describe, expect, it } from 'vitest';
import { makePattern } from '../../../../domain/learning/patterns/types.js';
import type { PatternType } from '../../../../domain/learning/patterns/types.js';
import { buildProjectReport } from '../../../../domain/project/project-report.js';
import { toRunTasks } from '../../../../domain/project/to-finished-tasks.js';
import { markNotRun, markStarted, recordOutcome } from '../../../../domain/project/task-record-updates.js';
import type { AttemptRecord } from '../../../../domain/task-state.js';
import { failedTestRun } from '../../../support/test-run.js';
import { attempt, outcome, plannedTask, projectState } from './fixtures.js';

const t0 = '2024-01-01T00:00:00.000Z';
const t4 = '2024-01-01T00:00:04.000Z';
const t5 = '2024-01-01T00:00:05.000Z';
const t9 = '2024-01-01T00:00:09.000Z';

/** An attempt whose test run found these patterns (strongest first) and whose coder was offered these skills. */
function failedWith(n: number, types: PatternType[], skills: string[] = []): AttemptRecord {
  const base = attempt(n, 'REWORK_REQUIRED');
  return {
    ...base,
    coder: { ...base.coder!, ...(skills.length ? { skillsOffered: skills } : {}) },
    test: failedTestRun(
      types.length ? { patterns: types.map((t) => makePattern(t, t === 'unknown' ? 0 : 0.9, [], 'e')) } : {},
    ),
  };
}

function passedWithDiff(n: number, bytes: number, skills: string[] = []): AttemptRecord {
  const base = attempt(n, 'PASSED');
  return {
    ...base,
    coder: { ...base.coder!, ...(skills.length ? { skillsOffered: skills } : {}) },
    review: {
      passed: true,
      findings: [],
      changedFiles: ['calc.py'],
      diffStat: { files: 1, insertions: 3, deletions: 1 },
      diff: { hostId: 'h', path: '/d.diff', bytes },
    },
  };
}

describe('toRunTasks', () => {
  it('turns outcome records into RunTasks: top pattern per failed attempt, diff tokens of the pass, summed prompt tokens, skill union', () => {
    const state = projectState(
      plannedTask('a'),
      plannedTask('b'),
      plannedTask('c'),
      plannedTask('d'),
      plannedTask('e'),
    );
    const [a, b, c, d] = state.tasks;
    markStarted(a!, t0);
    // Attempt 1 fails with wrong_constant on top, attempt 2 fails without patterns, attempt 3 passes with a 1001-byte diff.
    recordOutcome(
      a!,
      outcome('COMPLETED', [
        failedWith(1, ['wrong_constant', 'missing_impl'], ['s2']),
        failedWith(2, [], ['s1']),
        passedWithDiff(3, 1001, ['s2']),
      ]),
      t5,
    );
    markStarted(b!, t0);
    recordOutcome(
      b!,
      outcome('FAILED', [failedWith(1, ['unknown']), failedWith(2, ['api_mismatch'])], {
        recommendation: 'split_task',
      }),
      t4,
    );
    markStarted(c!, t0);
    recordOutcome(c!, outcome('COMPLETED', [passedWithDiff(1, 8)]), t9);
    markNotRun(d!, 'SKIPPED', "dependency 'b' is FAILED", t9);
    // e stays PENDING and a RUNNING task would be left out the same way.
    expect(toRunTasks(state)).toEqual([
      // 3 attempts x 200 input tokens; ceil(1001 / 4) = 251.
      {
        taskId: 'a',
        status: 'COMPLETED',
        attempts: 3,
        passedAtAttempt: 3,
        durationMs: 5000,
        patterns: ['wrong_constant'],
        acceptedDiffTokens: 251,
        promptTokens: 600,
        usedSkills: ['s1', 's2'],
      },
      {
        taskId: 'b',
        status: 'FAILED',
        attempts: 2,
        durationMs: 4000,
        patterns: ['unknown', 'api_mismatch'],
        acceptedDiffTokens: 0,
        promptTokens: 400,
      },
      {
        taskId: 'c',
        status: 'COMPLETED',
        attempts: 1,
        passedAtAttempt: 1,
        durationMs: 9000,
        patterns: [],
        acceptedDiffTokens: 2,
        promptTokens: 200,
      },
      {
        taskId: 'd',
        status: 'SKIPPED',
        attempts: 0,
        durationMs: 0,
        patterns: [],
        acceptedDiffTokens: 0,
        promptTokens: 0,
      },
    ]);
  });

  it('keeps the patterns of an earlier failed run when a retried run passes, and counts the pass over all runs', () => {
    const state = projectState(plannedTask('a'));
    const record = state.tasks[0]!;
    markStarted(record, t0);
    recordOutcome(record, outcome('FAILED', [failedWith(1, ['cross_dep'])]), t4);
    markStarted(record, t5);
    recordOutcome(record, outcome('COMPLETED', [passedWithDiff(1, 40)]), t9);
    expect(toRunTasks(state)).toEqual([
      {
        taskId: 'a',
        status: 'COMPLETED',
        attempts: 2,
        passedAtAttempt: 2,
        durationMs: 8000,
        patterns: ['cross_dep'],
        acceptedDiffTokens: 10,
        promptTokens: 400,
      },
    ]);
  });

  it('reads records made before these fields existed as no patterns, no diff and no skills', () => {
    const state = projectState(plannedTask('a'));
    markStarted(state.tasks[0]!, t0);
    recordOutcome(state.tasks[0]!, outcome('COMPLETED', [attempt(1, 'PASSED')]), t5);
    for (const key of ['patterns', 'acceptedDiffBytes', 'usedSkills'] as const) delete state.tasks[0]![key];
    expect(toRunTasks(state)).toEqual([
      {
        taskId: 'a',
        status: 'COMPLETED',
        attempts: 1,
        passedAtAttempt: 1,
        durationMs: 5000,
        patterns: [],
        acceptedDiffTokens: 0,
        promptTokens: 200,
      },
    ]);
  });

  it('puts the run tasks in the project report', () => {
    const state = projectState(plannedTask('a'), plannedTask('b'));
    markStarted(state.tasks[0]!, t0);
    recordOutcome(state.tasks[0]!, outcome('COMPLETED', [passedWithDiff(1, 400)]), t5);
    expect(buildProjectReport(state).runTasks).toEqual([
      {
        taskId: 'a',
        status: 'COMPLETED',
        attempts: 1,
        passedAtAttempt: 1,
        durationMs: 5000,
        patterns: [],
        acceptedDiffTokens: 100,
        promptTokens: 200,
      },
    ]);
  });
});
