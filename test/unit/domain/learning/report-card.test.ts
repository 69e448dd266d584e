import { describe, expect, it } from 'vitest';
import {
  buildReportCard,
  gradeRun,
  improvementActionByPattern,
  trendOf,
} from '../../../../domain/learning/report-card.js';
import type { RunTask } from '../../../../domain/learning/finished-task.js';
import { task } from './finished-task-fixture.js';

// A batch of six, computed by hand:
// statuses: 3 COMPLETED (t1, t2, t3), 1 FAILED (t4), 1 SKIPPED (t5), 1 CANCELLED (t6).
// fidelity = 3/6 = 0.5; pass rate at 1 = 2/6 (t1, t3); at 2 = 3/6; pass rate = 3 / (3 + 1) = 0.75.
// durations without the skipped task: 100, 300, 200, 900, 500 -> mean 2000/5 = 400, median 300.
// patterns: cross_dep 3 (t2 once, t4 twice), wrong_constant 1, unknown 1 -> 5 in all: shares 0.6, 0.2, 0.2.
// compression = (600 + 500 + 400) / (100 + 100 + 100 + 300 + 0 + 100) = 1500 / 700.
// grade: fidelity 0.5 -> D. Skills: t1, t3, t6 used one -> 2 completed of 2 with a verdict = 1.0;
// without: t2, t4, t5 -> 1 completed of 2 with a verdict = 0.5.
const batch: RunTask[] = [
  task('t1', 'COMPLETED', {
    passedAtAttempt: 1,
    durationMs: 100,
    acceptedDiffTokens: 600,
    promptTokens: 100,
    contractCount: 1,
    sizeLines: 40,
    usedSkills: ['s1'],
  }),
  task('t2', 'COMPLETED', {
    attempts: 2,
    passedAtAttempt: 2,
    durationMs: 300,
    patterns: ['cross_dep'],
    acceptedDiffTokens: 500,
    promptTokens: 100,
    contractCount: 1,
    sizeLines: 30,
  }),
  task('t3', 'COMPLETED', {
    passedAtAttempt: 1,
    durationMs: 200,
    acceptedDiffTokens: 400,
    promptTokens: 100,
    contractCount: 2,
    sizeLines: 80,
    usedSkills: ['s1'],
  }),
  task('t4', 'FAILED', {
    attempts: 3,
    durationMs: 900,
    patterns: ['cross_dep', 'cross_dep', 'wrong_constant'],
    promptTokens: 300,
    contractCount: 4,
    sizeLines: 200,
  }),
  task('t5', 'SKIPPED', { attempts: 0 }),
  task('t6', 'CANCELLED', {
    durationMs: 500,
    patterns: ['unknown'],
    promptTokens: 100,
    contractCount: 3,
    sizeLines: 100,
    usedSkills: ['s2'],
  }),
];

describe('buildReportCard', () => {
  it('computes the hand-checked numbers of a batch of six', () => {
    // Previous run: fidelity 0.45 (+0.05: STABLE), pass@1 0.4 (-0.067: DOWN), compression 2.0 (+0.143: UP).
    const card = buildReportCard(batch, { fidelity: 0.45, passRateAt1: 0.4, compression: 2 });
    expect(card.tasks).toEqual({ total: 6, completed: 3, failed: 1, skipped: 1, cancelled: 1 });
    expect(card.fidelity).toBe(0.5);
    expect(card.passRateAt1).toBeCloseTo(2 / 6, 12);
    expect(card.passRateAt2).toBe(0.5);
    expect(card.passRate).toBe(0.75);
    expect(card.meanDurationMs).toBe(400);
    expect(card.medianDurationMs).toBe(300);
    expect(card.patterns).toEqual([
      { pattern: 'cross_dep', count: 3, share: 0.6 },
      { pattern: 'unknown', count: 1, share: 0.2 },
      { pattern: 'wrong_constant', count: 1, share: 0.2 },
    ]);
    expect(card.novel).toEqual({ count: 1, taskIds: ['t6'] });
    expect(card.compression).toBeCloseTo(1500 / 700, 12);
    expect(card.grade).toBe('D');
    expect(card.trends.fidelity.direction).toBe('STABLE');
    expect(card.trends.passRateAt1.direction).toBe('DOWN');
    expect(card.trends.compression).toMatchObject({ direction: 'UP', previous: 2 });
    expect(card.improvementActions).toEqual([{ pattern: 'cross_dep', action: improvementActionByPattern.cross_dep }]);
    expect(card.skills).toEqual({ withSkill: { tasks: 3, passRate: 1 }, withoutSkill: { tasks: 3, passRate: 0.5 } });
    // Contracts 4 vs (1+1+2)/3; lines 200 vs (40+30+80)/3 = 50; t1 and t2 are simple and completed.
    expect(card.lessons.map((l) => l.text)).toEqual([
      'Failed tasks had 3.0x more contracts on average (4.0 vs 1.3)',
      'Failed tasks had 4.0x more lines on average (200.0 vs 50.0)',
      'Simple tasks (at most 1 contract and 50 lines) passed reliably: all 2 completed',
    ]);
  });

  it('is STABLE on every trend without a previous run', () => {
    const { trends } = buildReportCard(batch);
    expect(Object.values(trends).map((t) => t.direction)).toEqual(['STABLE', 'STABLE', 'STABLE']);
  });

  it('grades A at fidelity exactly 0.9 with every completed task passing at attempt 1', () => {
    const tasks = [
      ...Array.from({ length: 9 }, (_, i) => task(`c${i}`, 'COMPLETED', { acceptedDiffTokens: 50, promptTokens: 10 })),
      task('f', 'FAILED', { promptTokens: 0, patterns: ['cross_dep'] }),
    ];
    const card = buildReportCard(tasks);
    expect([card.fidelity, card.passRateAt1, card.grade]).toEqual([0.9, 0.9, 'A']);
  });

  it('grades a flawless run A, however few diff tokens its prompts made (compression is not graded)', () => {
    const tasks = Array.from({ length: 3 }, (_, i) =>
      task(`c${i}`, 'COMPLETED', { acceptedDiffTokens: 40, promptTokens: 4000 }),
    );
    const card = buildReportCard(tasks);
    expect([card.fidelity, card.passRateAt1, card.compression, card.grade]).toEqual([1, 1, 0.01, 'A']);
  });

  it('withholds A when a novel pattern appeared', () => {
    const tasks = [
      ...Array.from({ length: 9 }, (_, i) => task(`c${i}`, 'COMPLETED', { acceptedDiffTokens: 50, promptTokens: 10 })),
      task('f', 'FAILED', { patterns: ['unknown'] }),
    ];
    expect(buildReportCard(tasks).grade).toBe('B');
  });

  it('gives an empty run grade F, zero rates and no actions', () => {
    const card = buildReportCard([]);
    expect(card).toMatchObject({
      fidelity: 0,
      passRate: 0,
      compression: 0,
      meanDurationMs: 0,
      medianDurationMs: 0,
      grade: 'F',
      improvementActions: [],
      lessons: [],
    });
  });

  it('falls back to the attempt count when passedAtAttempt is missing, and averages the middle two for an even median', () => {
    const card = buildReportCard([
      task('a', 'COMPLETED', { durationMs: 10 }),
      task('b', 'COMPLETED', { attempts: 2, durationMs: 30 }),
    ]);
    expect([card.passRateAt1, card.passRateAt2, card.medianDurationMs]).toEqual([0.5, 1, 20]);
  });

  it('has a generic action for a pattern without a fixed text', () => {
    expect(buildReportCard([task('a', 'FAILED', { patterns: ['flaky'] })]).improvementActions[0]!.action).toContain(
      'add a strategy',
    );
  });
});

describe('gradeRun', () => {
  it.each([
    [0.9, 0.75, 0, 'A'],
    [0.9, 0.74, 0, 'B'],
    [0.89, 1, 0, 'B'],
    [0.75, 0.5, 0, 'B'],
    [0.75, 0.49, 0, 'C'],
    [0.74, 1, 0, 'C'],
    [0.6, 0, 0, 'C'],
    [0.59, 0, 0, 'D'],
    [0.4, 0, 0, 'D'],
    [0.39, 0.39, 0, 'F'],
    [1, 1, 1, 'B'],
  ] as const)('grades fidelity %s, pass at attempt 1 %s, novel %s as %s', (fidelity, passRateAt1, novel, grade) => {
    expect(gradeRun(fidelity, passRateAt1, novel)).toBe(grade);
  });
});

describe('trendOf', () => {
  it('calls a change of exactly 0.05 STABLE, whichever decimals produce it', () => {
    for (let k = 0; k < 19; k++) {
      const low = k * 0.05;
      const high = (k + 1) * 0.05;
      expect(trendOf(high, low).direction).toBe('STABLE');
      expect(trendOf(low, high).direction).toBe('STABLE');
    }
    expect(trendOf(0.85, 0.8).direction).toBe('STABLE');
    expect(trendOf(5.05, 5).direction).toBe('STABLE');
  });

  it('calls a change beyond 0.05 UP or DOWN', () => {
    expect(trendOf(0.851, 0.8)).toMatchObject({ direction: 'UP', previous: 0.8 });
    expect(trendOf(0.749, 0.8).direction).toBe('DOWN');
  });
});
